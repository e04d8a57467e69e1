import { createServer, type Server } from 'node:http';

/**
 * A local HTTP endpoint for webhook tests: it records what arrives as `read(headers, body)` answers
 * it, answers 200 `ok`, or 503 `failingBody` once switched to failing; `start()` answers its URL.
 */
export function webhookReceiver<T>(read: (headers: Record<string, string>, body: string) => T, failingBody = 'down') {
  const got: T[] = [];
  let failing = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(read(req.headers as Record<string, string>, body));
      res.writeHead(failing ? 503 : 200).end(failing ? failingBody : 'ok');
    });
  });
  return {
    got,
    setFailing: (f: boolean) => (failing = f),
    start: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`))),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Poll `cond` (sync or async) every 50 ms until it holds; throws `timed out` after `ms`. */
export const eventually = async (cond: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};
