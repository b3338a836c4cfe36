/**
 * Which programs test code starts through node:child_process, read from the source with TypeScript's
 * parser. A call's program is followed back through constants, destructuring, conditionals and the
 * parameters of local functions (to every call site in the file) until it is a literal, Node itself
 * (`process.execPath`, or `fork`), or a value that comes from an npm package (a dynamic `import()`, an
 * import of a package, a path into node_modules). A program that cannot be followed is reported as such,
 * so a test cannot slip a system program past the guard by naming it indirectly.
 */
import { builtinModules } from 'node:module';
import ts from 'typescript';

export type Program =
  | { kind: 'node' }
  | { kind: 'npm'; via: string }
  | { kind: 'named'; name: string }
  | { kind: 'unknown'; text: string };

export interface Spawn {
  line: number;
  call: string;
  programs: Program[];
}

const CHILD_PROCESS_MODULES = new Set(['node:child_process', 'child_process']);
/** Functions whose first argument is the program, or (exec, execSync) a shell line starting with it. */
const STARTERS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']);
const SHELL_LINE = new Set(['exec', 'execSync']);
/** How deep a value is followed; deeper chains are reported as unknown rather than looping. */
const MAX_DEPTH = 12;
/** A path into node_modules, or the folder name as one argument of a path join. */
const NODE_MODULES = /(^|\/)node_modules(\/|$)/;

/** The programs each child_process call in `source` starts. */
export function spawnedPrograms(fileName: string, source: string): Spawn[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const starters = new Map<string, string>();
  const namespaces = new Set<string>();
  const packageImports = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause;
    if (bindings === undefined) continue;
    const specifier = statement.moduleSpecifier.text;
    const names = [
      ...(bindings.name === undefined ? [] : [bindings.name.text]),
      ...(bindings.namedBindings === undefined
        ? []
        : ts.isNamespaceImport(bindings.namedBindings)
          ? [bindings.namedBindings.name.text]
          : bindings.namedBindings.elements.map((element) => element.name.text)),
    ];
    if (CHILD_PROCESS_MODULES.has(specifier)) {
      if (bindings.name !== undefined) namespaces.add(bindings.name.text);
      if (bindings.namedBindings !== undefined && ts.isNamespaceImport(bindings.namedBindings)) {
        namespaces.add(bindings.namedBindings.name.text);
      } else if (bindings.namedBindings !== undefined) {
        for (const element of bindings.namedBindings.elements) {
          starters.set(element.name.text, (element.propertyName ?? element.name).text);
        }
      }
    } else if (isPackageSpecifier(specifier)) {
      for (const name of names) packageImports.add(name);
    }
  }

  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(file);

  /** The child_process function a callee is: `spawn`, `cp.spawn`, `promisify(execFile)`, or a const of one. */
  function starterOf(callee: ts.Expression, depth = 0): string | undefined {
    const expression = unwrap(callee);
    if (ts.isIdentifier(expression)) {
      const direct = starters.get(expression.text);
      if (direct !== undefined) return direct;
      const declaration = declarationOf(expression);
      if (
        declaration !== undefined &&
        ts.isVariableDeclaration(declaration) &&
        declaration.initializer &&
        depth < 3
      ) {
        return starterOf(declaration.initializer, depth + 1);
      }
      return undefined;
    }
    if (
      ts.isPropertyAccessExpression(expression) &&
      ts.isIdentifier(expression.expression) &&
      namespaces.has(expression.expression.text) &&
      STARTERS.has(expression.name.text)
    ) {
      return expression.name.text;
    }
    if (ts.isCallExpression(expression) && calleeName(expression) === 'promisify') {
      const [wrapped] = expression.arguments;
      return wrapped === undefined ? undefined : starterOf(wrapped, depth + 1);
    }
    return undefined;
  }

  /** Where a name used at `at` is declared: the nearest enclosing variable, parameter or function. */
  function declarationOf(name: ts.Identifier): ts.Node | undefined {
    for (let scope: ts.Node | undefined = name.parent; scope !== undefined; scope = scope.parent) {
      if (ts.isFunctionLike(scope)) {
        for (const parameter of scope.parameters) {
          if (ts.isIdentifier(parameter.name) && parameter.name.text === name.text) return parameter;
        }
      }
      const statements = ts.isBlock(scope) || ts.isSourceFile(scope) ? scope.statements : undefined;
      for (const statement of statements ?? []) {
        if (ts.isVariableStatement(statement)) {
          for (const declaration of statement.declarationList.declarations) {
            if (bindsName(declaration.name, name.text)) return declaration;
          }
        }
        if (ts.isFunctionDeclaration(statement) && statement.name?.text === name.text) return statement;
      }
    }
    return undefined;
  }

  /** Every call in the file of the function a parameter belongs to, with the argument in its place. */
  function argumentsFor(parameter: ts.ParameterDeclaration): ts.Expression[] | undefined {
    const fn = parameter.parent;
    const index = fn.parameters.indexOf(parameter);
    const fnName =
      ts.isFunctionDeclaration(fn) && fn.name !== undefined
        ? fn.name.text
        : (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
            ts.isVariableDeclaration(fn.parent) &&
            ts.isIdentifier(fn.parent.name)
          ? fn.parent.name.text
          : undefined;
    if (fnName === undefined) return undefined;
    const found = calls
      .filter((call) => ts.isIdentifier(call.expression) && call.expression.text === fnName)
      .map((call) => call.arguments[index]);
    if (found.length === 0 || found.some((argument) => argument === undefined)) return undefined;
    return found as ts.Expression[];
  }

  function programsOf(value: ts.Expression, depth: number): Program[] {
    const expression = unwrap(value);
    const unknown: Program[] = [{ kind: 'unknown', text: expression.getText(file) }];
    if (depth > MAX_DEPTH) return unknown;
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
      return [literal(expression.text)];
    }
    if (
      ts.isPropertyAccessExpression(expression) &&
      expression.getText(file).replace(/\s/g, '') === 'process.execPath'
    ) {
      return [{ kind: 'node' }];
    }
    if (ts.isConditionalExpression(expression)) {
      return [...programsOf(expression.whenTrue, depth + 1), ...programsOf(expression.whenFalse, depth + 1)];
    }
    if (ts.isCallExpression(expression)) {
      if (expression.expression.kind === ts.SyntaxKind.ImportKeyword)
        return [{ kind: 'npm', via: 'import()' }];
      // `promise.catch(...)` / `.then(...)` keep the value of the promise they are called on.
      if (
        ts.isPropertyAccessExpression(expression.expression) &&
        expression.expression.name.text === 'catch'
      ) {
        return programsOf(expression.expression.expression, depth + 1);
      }
      const intoNodeModules = expression.arguments.some(
        (argument) => ts.isStringLiteral(argument) && NODE_MODULES.test(argument.text),
      );
      return intoNodeModules ? [{ kind: 'npm', via: expression.getText(file) }] : unknown;
    }
    if (ts.isPropertyAccessExpression(expression) || ts.isElementAccessExpression(expression)) {
      const owner = programsOf(expression.expression, depth + 1);
      return owner.every((program) => program.kind === 'npm') ? owner : unknown;
    }
    if (ts.isIdentifier(expression)) {
      if (packageImports.has(expression.text)) return [{ kind: 'npm', via: `import ${expression.text}` }];
      const declaration = declarationOf(expression);
      if (declaration === undefined) return unknown;
      if (ts.isParameter(declaration)) {
        const passed = argumentsFor(declaration);
        return passed === undefined ? unknown : passed.flatMap((argument) => programsOf(argument, depth + 1));
      }
      if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
        return bound(declaration.name, expression.text, declaration.initializer, depth + 1) ?? unknown;
      }
    }
    return unknown;
  }

  /** The value `name` takes in `pattern = initializer`: itself, an array element, or an object property. */
  function bound(
    pattern: ts.BindingName,
    name: string,
    initializer: ts.Expression,
    depth: number,
  ): Program[] | undefined {
    if (ts.isIdentifier(pattern)) return programsOf(initializer, depth);
    const value = unwrap(initializer);
    if (ts.isConditionalExpression(value)) {
      const sides = [value.whenTrue, value.whenFalse].map((side) => bound(pattern, name, side, depth + 1));
      return sides.every((side) => side !== undefined) ? sides.flat() : undefined;
    }
    // Destructured from an npm module (or a promise of one): every part of it comes from npm.
    const whole = programsOf(value, depth + 1);
    if (whole.every((program) => program.kind === 'npm')) return whole;
    if (ts.isArrayBindingPattern(pattern) && ts.isArrayLiteralExpression(value)) {
      const index = pattern.elements.findIndex(
        (element) =>
          ts.isBindingElement(element) && ts.isIdentifier(element.name) && element.name.text === name,
      );
      const element = value.elements[index];
      return element === undefined ? undefined : programsOf(element, depth + 1);
    }
    return undefined;
  }

  return calls.flatMap((call) => {
    const starter = starterOf(call.expression);
    if (starter === undefined) return [];
    const line = file.getLineAndCharacterOfPosition(call.getStart(file)).line + 1;
    const [first, , options] = call.arguments;
    let programs: Program[];
    if (starter === 'fork') {
      // fork runs a module in Node, unless its options name another runtime.
      const execPath = options !== undefined ? propertyOf(options, 'execPath') : undefined;
      programs = execPath === undefined ? [{ kind: 'node' }] : programsOf(execPath, 0);
    } else if (first === undefined) {
      programs = [{ kind: 'unknown', text: '(no program)' }];
    } else {
      programs = programsOf(first, 0);
      if (SHELL_LINE.has(starter)) {
        programs = programs.map((program) =>
          program.kind === 'named' ? literal(program.name.trim().split(/\s+/)[0] ?? '') : program,
        );
      }
    }
    return [{ line, call: starter, programs }];
  });
}

function literal(text: string): Program {
  return NODE_MODULES.test(text) ? { kind: 'npm', via: text } : { kind: 'named', name: text };
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isAwaitExpression(current) ||
    ts.isSatisfiesExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

function calleeName(call: ts.CallExpression): string | undefined {
  return ts.isIdentifier(call.expression) ? call.expression.text : undefined;
}

function bindsName(pattern: ts.BindingName, name: string): boolean {
  if (ts.isIdentifier(pattern)) return pattern.text === name;
  return pattern.elements.some((element) => ts.isBindingElement(element) && bindsName(element.name, name));
}

function propertyOf(options: ts.Expression, name: string): ts.Expression | undefined {
  const object = unwrap(options);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && property.name.getText() === name) return property.initializer;
    if (ts.isShorthandPropertyAssignment(property) && property.name.text === name) return property.name;
  }
  return undefined;
}

/** A package from node_modules, not a Node built-in or a file of the repository. */
function isPackageSpecifier(specifier: string): boolean {
  return (
    !specifier.startsWith('.') &&
    !specifier.startsWith('/') &&
    !specifier.startsWith('node:') &&
    !builtinModules.includes(specifier)
  );
}
