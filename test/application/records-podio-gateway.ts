// The records tools over the Podio adapters and the local Podio stand-in, behind a test gateway: the same
// tool calls as records-gateway.ts, reaching Podio's documented endpoints.
import { PodioClient } from '../../adapters/outbound/podio/podio-client.js';
import { PodioRecordApps } from '../../adapters/outbound/podio/podio-record-apps.js';
import { PodioRecordComments } from '../../adapters/outbound/podio/podio-record-comments.js';
import { PodioRecordStore } from '../../adapters/outbound/podio/podio-record-store.js';
import { StaticPodioToken } from '../../adapters/outbound/podio/podio-tokens.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { TE } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordComments } from '../../ports/record-comments.js';
import { RecordStore } from '../../ports/record-store.js';
import { RecordsSettings } from '../../ports/records-settings.js';
import { PodioServer } from '../fakes/podio-server.js';
import { servePodioItems } from '../fakes/podio-items.js';
import { everyone, NOW, testGateway } from '../support/gateway.js';

export const podioSetup = async (options: { readonly countedApps?: number } = {}) => {
  const clock = new FixedClock(NOW);
  const server = await PodioServer.start({ clock });
  const { store: standIn } = servePodioItems(server, clock);
  const client = new PodioClient({
    baseUrl: server.baseUrl,
    auth: new StaticPodioToken(server.issueToken(5001)),
    timeoutMs: 3_000,
    clock,
  });
  const apps = new PodioRecordApps(client, options);
  const g = testGateway(
    {
      clock,
      ports: [
        [RecordApps, apps],
        [RecordStore, new PodioRecordStore(client, apps)],
        [RecordComments, new PodioRecordComments(client)],
        [RecordsSettings, { timeZone: 'UTC', activeProfileId: () => TE.right(9101) }],
      ],
    },
    { GATEWAY_OUTPUT_BUDGET_CHARS: '10000000' },
  );
  const call = async (name: string, args: unknown, format: 'text' | 'json' = 'json') => {
    const r = await g.callTool(`records_${name}`, args, { principal: everyone, format });
    return {
      status: r.status,
      data: (r.body as any).success ? (r.body as any).data : undefined,
      error: (r.body as any).success ? undefined : (r.body as any).error,
    };
  };
  const close = async () => {
    await g.close();
    await server.close();
  };
  return { g, server, standIn, apps, call, close, clock };
};
