// The floor: node:http answering the recorded bytes, nothing else.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BENCH_BODY ?? '{}');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`),
);
