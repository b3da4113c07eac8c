import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a stand-in server on a free loopback port. */
export const listenOnLoopback = (server: Server): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

export const loopbackUrl = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
