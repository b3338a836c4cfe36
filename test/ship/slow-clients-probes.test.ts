/**
 * Slow clients cannot starve the probes: `punchgate serve` as a process under `ulimit -n 1024`, with 1,500
 * slowloris sockets open from 20 loopback addresses (each sends part of a request header, a line every few
 * seconds or nothing at all, and connects again whenever the gateway drops it), still answers /healthz and
 * /readyz from another address within the 1 s a monitor waits. The figures (probes answered, RSS) are
 * printed for docs/operations.md.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerSystem } from './buyer-system.ts';
import { type ServeProcess, SHIP_TEST_TIMEOUT_MS, stopAllCommands } from './processes.ts';
import { startServeBesideSandbox } from './serve-beside-sandbox.ts';

const OPEN_FILE_LIMIT = 1024;
const SLOW_SOCKETS = 1_500;
/** 127.0.0.2 … 127.0.0.21; the probes come from 127.0.0.1. */
const SLOW_ADDRESSES = Array.from({ length: 20 }, (_, i) => `127.0.0.${2 + i}`);
/** What a monitor waits for a probe's answer: the requirement itself. */
const PROBE_TIMEOUT_MS = 1_000;
const PROBES = 60;
const PROBE_INTERVAL_MS = 200;
/** How long a slowloris socket waits between two header lines. */
const TRICKLE_MS = 2_000;
/** How long a dropped slowloris socket waits before it connects again. */
const RECONNECT_MS = 500;

function rssBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * 1,500 slow sockets kept open: every other one trickles header lines, the rest send half a request line
 * and then nothing. A socket the gateway closes is opened again, so the pressure lasts until `stop`.
 */
function slowloris(port: number) {
  const sockets = new Set<Socket>();
  let running = true;
  let connections = 0;
  const open = (index: number) => {
    if (!running) return;
    connections++;
    const localAddress = SLOW_ADDRESSES[index % SLOW_ADDRESSES.length] as string;
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.add(socket);
    let trickle: NodeJS.Timeout | undefined;
    socket.on('error', () => {
      // Refused or reset by the gateway: expected, the socket is opened again on close.
    });
    socket.resume();
    socket.once('connect', () => {
      if (index % 2 === 0) {
        socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
        let line = 0;
        trickle = setInterval(() => socket.write(`X-Slow-${line++}: ${'a'.repeat(20)}\r\n`), TRICKLE_MS);
      } else {
        socket.write('GET /heal');
      }
    });
    socket.once('close', () => {
      clearInterval(trickle);
      sockets.delete(socket);
      if (running) setTimeout(() => open(index), RECONNECT_MS).unref();
    });
  };
  for (let i = 0; i < SLOW_SOCKETS; i++) open(i);
  return {
    openNow: () => [...sockets].filter((s) => !s.connecting && !s.destroyed).length,
    connections: () => connections,
    stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** One probe as a monitor sends it: a fresh connection from 127.0.0.1, given PROBE_TIMEOUT_MS to answer. */
function probe(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { agent: false, localAddress: '127.0.0.1', timeout: PROBE_TIMEOUT_MS },
      (res) => {
        res.resume();
        res.once('end', () => resolve(String(res.statusCode)));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('no answer within 1 s')), PROBE_TIMEOUT_MS);
    req.once('close', () => clearTimeout(timer));
    req.once('timeout', () => req.destroy(new Error('no answer within 1 s')));
    req.once('error', (error) => resolve(error.message));
    req.end();
  });
}

describe('probes against punchgate serve under ulimit -n 1024 with 1,500 slowloris sockets', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  let buyer: BuyerSystem;
  let serve: ServeProcess;
  let port: number;

  beforeAll(async () => {
    ({ buyer, serve, port } = await startServeBesideSandbox({
      serveEnv: { LOG_LEVEL: 'warn' },
      openFileLimit: OPEN_FILE_LIMIT,
    }));
  }, SHIP_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopAllCommands();
    await buyer?.close();
  });

  it('/healthz and /readyz from another address answer 200 within 1 s, every one', async () => {
    const pid = serve.process.pid ?? 0;
    expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(/^Max open files\s+1024\s/m);
    const before = rssBytes(pid);
    const attack = slowloris(port);
    try {
      // Let the sockets connect and the gateway fill up before probing.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      let peak = rssBytes(pid);
      let fewestOpen = attack.openNow();
      const outcomes: string[] = [];
      for (let i = 0; i < PROBES; i++) {
        const path = i % 2 === 0 ? '/healthz' : '/readyz';
        outcomes.push(`${path} ${await probe(`${serve.url}${path}`)}`);
        peak = Math.max(peak, rssBytes(pid));
        fewestOpen = Math.min(fewestOpen, attack.openNow());
        await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
      }
      const failed = outcomes.filter((outcome) => !outcome.endsWith(' 200'));
      console.log(
        `slowloris: ${outcomes.length - failed.length}/${outcomes.length} probes answered 200 within 1 s; ` +
          `slow sockets open at least ${fewestOpen} of ${SLOW_SOCKETS} (${attack.connections()} connections in all); ` +
          `RSS ${Math.round(before / 1048576)} MB → peak ${Math.round(peak / 1048576)} MB`,
      );
      expect(failed).toEqual([]);
      expect(serve.process.exit()).toBeUndefined();
    } finally {
      attack.stop();
    }
  });
});
