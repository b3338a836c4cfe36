/**
 * A CSV download streamed page by page: each page of records is read from the store only when the client
 * has taken the one before (a pull stream without a queue of its own), written as CSV (RFC 4180: a field
 * with a quote, comma or line break in double quotes, quotes doubled; CRLF after each row) and sent, so an
 * export of a year of POs holds one page in memory, not the year. The quoting is written here rather than
 * taken from csv-stringify: that package reads Node's `Buffer` when it loads, which the Worker does not
 * have, and its browser build carries a Buffer polyfill that takes the Worker over its size budget.
 *
 * Cells are guarded against formula injection: spreadsheet programs run a cell that starts with `=`, `+`,
 * `-` or `@` (or a tab, a carriage return, or the full-width forms of those signs) as a formula, and a
 * buyer chooses much of what is exported (PO numbers, payloadIDs, notes). Such a cell gets a `'` in front,
 * which the spreadsheet shows as text. A plain decimal number (`-12.50`, a credit) is left as it is.
 */
/** One column: its heading and its cell of a record (empty where the record has no value). */
export interface CsvColumn<R> {
  readonly header: string;
  cell(record: R): string | number | undefined;
}

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A cell as written: a formula-like text behind a `'`, anything else as it is. */
export function guardedCell(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A field as RFC 4180 writes it: in double quotes, its quotes doubled, when it holds `"`, `,`, CR or LF. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of `rows` (already guarded cells), CRLF after each row as RFC 4180 has it. */
function csvText(rows: readonly string[][]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/**
 * The download: `filename` as an attachment, UTF-8 with a byte-order mark (without it, spreadsheet
 * programs read the file in the machine's legacy code page and break every non-ASCII name), the heading
 * row, then `pages` as the client reads. A page that fails to read ends the download with an error (the
 * client sees a broken transfer, never a short file that looks whole); `onFailure` is told why.
 */
export function csvDownload<R>(
  filename: string,
  columns: readonly CsvColumn<R>[],
  pages: AsyncIterator<readonly R[]>,
  onFailure: (error: unknown) => void,
): Response {
  const encoder = new TextEncoder();
  const heading = `\uFEFF${csvText([columns.map((c) => guardedCell(c.header))])}`;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(heading));
      },
      async pull(controller) {
        let next: IteratorResult<readonly R[]>;
        try {
          // A page may come back empty (a window the store skips through); the client waits for rows.
          do next = await pages.next();
          while (next.done !== true && next.value.length === 0);
        } catch (error) {
          onFailure(error);
          throw error;
        }
        if (next.done === true) {
          controller.close();
          return;
        }
        const rows = next.value.map((record) => columns.map((c) => guardedCell(c.cell(record))));
        controller.enqueue(encoder.encode(csvText(rows)));
      },
      async cancel() {
        await pages.return?.();
      },
    },
    // No queue ahead of the client: the next page is read only when the client has taken the last.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
