'use strict';
// The Node version guard, run by `npm install` (the preinstall script) and by bin/punchgate.js before it
// imports anything else. Plain CommonJS with no syntax newer than ES2015 (no optional chaining, no `??`)
// on purpose: it has to run on the old Node it refuses, and say in one line which Node punchgate needs
// instead of a stack trace from newer code. The minimum is the one package.json's `engines` states.

const required = require('../package.json').engines.node.replace(/^>=\s*/, '');

const versionParts = (version) => version.split('.').map((part) => parseInt(part, 10) || 0);

function isOlder(found, needed) {
  const a = versionParts(found);
  const b = versionParts(needed);
  for (let i = 0; i < 3; i++) {
    if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) < (b[i] || 0);
  }
  return false;
}

/** Exits 1 with one line on stderr when this Node is older than `engines.node`. */
function checkNode() {
  const found = process.versions.node;
  if (isOlder(found, required)) {
    process.stderr.write(`punchgate needs Node.js ${required} or newer; this is Node.js ${found}\n`);
    process.exit(1);
  }
}

module.exports = checkNode;
if (require.main === module) checkNode();
