/**
 * Receivers of the gateway's notifications on loopback, for the channel tests and the ship test: a plain
 * HTTP server as the webhook receiver, and `smtp-server` as the mail server (never a real one). Each keeps
 * what it received, and `close` stops it.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface WebhookCall {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: WebhookCall[];
  close(): Promise<void>;
}

/** `answer` gives each call's HTTP status; `undefined` never answers (a receiver that hangs). */
export async function startWebhookReceiver(
  answer: (call: WebhookCall) => number | undefined = () => 200,
): Promise<WebhookReceiver> {
  const received: WebhookCall[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const call = { headers: request.headers, body };
    received.push(call);
    const status = answer(call);
    if (status !== undefined) response.writeHead(status).end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/punchgate`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  /** The user that authenticated, if any. */
  user: string | undefined;
  /** The message as transmitted: headers and body. */
  data: string;
  /** The body as a reader sees it: quoted-printable decoded, lines ending in LF as the gateway wrote them. */
  text: string;
}

/** The body of a transmitted message, quoted-printable decoded when it says it is. */
function bodyText(data: string): string {
  const split = data.indexOf('\r\n\r\n');
  const head = split < 0 ? '' : data.slice(0, split);
  const body = split < 0 ? data : data.slice(split + 4);
  if (!/^Content-Transfer-Encoding: quoted-printable\r?$/im.test(head)) return body.replace(/\r\n/g, '\n');
  const bytes = body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0))).replace(/\r\n/g, '\n');
}

export interface MailServer {
  /** `smtp://127.0.0.1:<port>`, as the config names it. */
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** With `password`, only user `gateway` with it may send; without, anyone may. */
export async function startMailServer(options: { password?: string } = {}): Promise<MailServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Loopback and a test: no TLS, so credentials may go in clear here (never in production).
    secure: false,
    hideSTARTTLS: true,
    allowInsecureAuth: true,
    authOptional: options.password === undefined,
    onAuth(auth, _session, callback) {
      if (auth.username === 'gateway' && auth.password === options.password) {
        callback(null, { user: 'gateway' });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        mails.push({
          from: from === false ? undefined : from.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          data,
          text: bodyText(data),
        });
        callback();
      });
    },
    logger: false,
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
