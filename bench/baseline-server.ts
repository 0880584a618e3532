/*
 * The yardstick: a bare node:http server answering fixed bytes, with the same status and
 * content-type the store answered. Started by bench/run.ts; prints "listening <port>".
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type Fixture = { status: number; contentType: string; bodyBase64: string };

const fixtures = JSON.parse(readFileSync(process.argv[2], "utf8")) as Record<string, Fixture>;
const answers = new Map(
  Object.entries(fixtures).map(([urlPath, fixture]) => {
    const body = Buffer.from(fixture.bodyBase64, "base64");
    return [
      urlPath,
      { status: fixture.status, body, headers: { "content-type": fixture.contentType, "content-length": body.length } },
    ];
  }),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers).end(answer.body);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
