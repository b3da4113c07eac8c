import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback, loopbackUrl } from './listen.js';

// An OTLP/HTTP traces receiver standing in for an OpenTelemetry Collector: POST /v1/traces, answered 200
// with an empty ExportTraceServiceResponse. JSON bodies (http/json) are decoded into spans; protobuf bodies
// (http/protobuf) are kept as bytes.

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, string | number | boolean>;
  readonly status?: { readonly code?: number };
  readonly serviceName?: string;
}

interface OtlpValue {
  readonly stringValue?: string;
  readonly intValue?: string | number;
  readonly boolValue?: boolean;
  readonly doubleValue?: number;
}
interface OtlpAttribute {
  readonly key: string;
  readonly value: OtlpValue;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes?: readonly OtlpAttribute[];
  readonly status?: { readonly code?: number };
}
interface OtlpExport {
  readonly resourceSpans?: readonly {
    readonly resource?: { readonly attributes?: readonly OtlpAttribute[] };
    readonly scopeSpans?: readonly { readonly spans?: readonly OtlpSpan[] }[];
  }[];
}

const valueOf = (v: OtlpValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? ''));

const attributesOf = (list: readonly OtlpAttribute[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export as it came: its content type and body. */
  readonly exports: { readonly contentType: string; readonly body: Buffer }[] = [];

  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => this.receive(req, res));
  }

  /** Where the exporter sends (`http://127.0.0.1:<port>/v1/traces`). */
  get tracesUrl(): string {
    return `${loopbackUrl(this.server)}/v1/traces`;
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await listenOnLoopback(receiver.server);
    return receiver;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const contentType = req.headers['content-type'] ?? '';
      const body = Buffer.concat(chunks);
      this.exports.push({ contentType, body });
      if (contentType.startsWith('application/json')) this.take(JSON.parse(body.toString('utf8')) as OtlpExport);
      res.writeHead(200, {
        'content-type': contentType.startsWith('application/json') ? 'application/json' : contentType,
      });
      res.end(contentType.startsWith('application/json') ? '{}' : '');
    });
  }

  private take(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const serviceName = attributesOf(rs.resource?.attributes)['service.name'];
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          this.spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
            name: s.name,
            kind: s.kind,
            attributes: attributesOf(s.attributes),
            ...(s.status ? { status: s.status } : {}),
            ...(typeof serviceName === 'string' ? { serviceName } : {}),
          });
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
