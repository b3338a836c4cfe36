#!/usr/bin/env node
// The `punchgate` command. Its own syntax and imports stay within what any ES-module Node parses, and it
// checks the Node version before importing the gateway, so an old Node gets one line naming the Node
// punchgate needs (bin/check-node.cjs) rather than a stack trace from newer code.
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import checkNode from './check-node.cjs';

checkNode();

const sources = new URL('../src/cli.ts', import.meta.url);
if (existsSync(sources)) {
  // A checkout: run the TypeScript sources, and let `punchgate/…` and `@punchgate/sandbox/…` resolve to
  // theirs too (the "punchgate-source" export condition; tsconfig.json says why). The installed package
  // has no src/ and runs what `npm run build` emitted.
  nodeModule.registerHooks({
    resolve: (specifier, context, nextResolve) =>
      nextResolve(specifier, { ...context, conditions: [...context.conditions, 'punchgate-source'] }),
  });
  import(sources.href);
} else {
  import('../dist/src/cli.js');
}
