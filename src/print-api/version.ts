/**
 * punchgate's version, as `package.json` names it (test/print-api/version.test.ts holds them equal; bump
 * both). Written here rather than imported from `package.json`: a JSON import brings the whole file into
 * the Worker's bundle (1.2 KiB gzip) for this one field.
 */
export const PUNCHGATE_VERSION = '0.1.0';
