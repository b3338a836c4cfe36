/** A parse thread that fails as it starts (node-cxml-parser.test.ts): its `error` event, not an answer. */
throw new Error('the parse thread could not start');
