import { pino } from 'pino';

// The gateway's own log destination. pino's default (sonic-boom, asynchronous) costs far more per line
// than pino's formatting: each write measures the byte length of everything still pending, as one
// concatenated string that V8 must flatten first, and each flush goes through the thread pool. At 30k
// calls a second that was about a quarter of the gateway's CPU (npm run bench, LOG_LEVEL=info against
// warn). Here the lines written during one turn of the event loop are joined once and written together,
// synchronously, when the turn ends: one write(2) per turn, nothing pending across turns, and on exit the
// last turn's lines are written before the process ends.

/** What pino needs of a destination, and what sonic-boom gives. */
export interface LineSink {
  write(chunk: string): unknown;
  flushSync(): void;
}

/**
 * A turn that logs more than this many characters writes what it has at once, not at the turn's end:
 * lines held longer outlive young-generation collections and cost more than the extra write(2). In
 * process, a cap of 1 MiB made each logged call cost 5.5 µs against 2.8 µs with 16 KiB.
 */
export const MAX_PENDING_CHARS = 1 << 14;

export class TurnBatchedLines {
  private lines: string[] = [];
  private chars = 0;
  private scheduled = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxPendingChars = MAX_PENDING_CHARS,
  ) {}

  /** Takes one line (pino gives each with its newline); it reaches the sink when this turn ends. */
  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.maxPendingChars) this.drain();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.endOfTurn);
    }
    return true;
  }

  /** Writes every pending line now (pino's `logger.flush()`, shutdown, exit). */
  flushSync(): void {
    this.drain();
    this.sink.flushSync();
  }

  /** pino's `logger.flush(cb)`. */
  flush(cb?: (error?: Error) => void): void {
    try {
      this.flushSync();
      cb?.();
    } catch (error) {
      cb?.(error as Error);
    }
  }

  private readonly endOfTurn = () => {
    this.scheduled = false;
    this.drain();
  };

  private drain(): void {
    const { lines } = this;
    if (lines.length === 0) return;
    this.lines = [];
    this.chars = 0;
    this.sink.write(lines.length === 1 ? lines[0]! : lines.join(''));
  }
}

let stdoutLines: TurnBatchedLines | undefined;

/**
 * Standard output as a turn-batched destination: one per process, written synchronously (sonic-boom
 * waits out a full pipe), and flushed on exit, so that even `process.exit()` loses no line.
 */
export const stdoutLogDestination = (): TurnBatchedLines => {
  if (!stdoutLines) {
    const lines = new TurnBatchedLines(pino.destination({ dest: 1, sync: true }));
    process.once('exit', () => lines.flushSync());
    stdoutLines = lines;
  }
  return stdoutLines;
};
