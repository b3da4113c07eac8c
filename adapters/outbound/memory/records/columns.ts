// A columnar index of an app's records for fast filtering and sorting in memory: each field used by a query
// gets compact per-row arrays (column.ts), built on first use and kept current as rows change. Results are
// identical to compileFilter and sortRecords in domain/records/filters.ts (test/adapters/outbound/memory-record-columns.test.ts).
import type { FieldDefinition } from '../../../../domain/records/field.js';
import { isMulti, valueSpecOf, VALUE_TYPE_SPECS } from '../../../../domain/records/field-types/table.js';
import type { ResolvedFilter } from '../../../../domain/records/filter-model.js';
import { valueOf, type RecordData } from '../../../../domain/records/record.js';
import { columnFilter, dateTest, type RowPredicate } from './column-filters.js';
import { comparator, topK } from './column-order.js';
import { fillRow, grow, newColumn, type Column } from './column.js';

type SystemDate = 'created_on' | 'last_modified_on';
type ColumnKey = number | SystemDate;

/** Rows in insertion order; callers append rows in record_id order, so row order is record_id order. */
export class RecordColumns {
  readonly records: RecordData[] = [];
  private activeFlags = new Uint8Array(64);
  private activeCount = 0;
  private readonly columns = new Map<ColumnKey, { field: FieldDefinition | undefined; col: Column }>();

  get size(): number {
    return this.records.length;
  }

  get active(): number {
    return this.activeCount;
  }

  /** Appends a row and returns its index. */
  add(record: RecordData): number {
    const row = this.records.length;
    this.records.push(record);
    this.activeFlags = grow(this.activeFlags, row + 1);
    this.activeFlags[row] = 0;
    this.set(row, record);
    return row;
  }

  /** Replaces a row's record (after an update, delete or restore). */
  set(row: number, record: RecordData): void {
    this.records[row] = record;
    const active = record.deleted_on === null ? 1 : 0;
    this.activeCount += active - this.activeFlags[row]!;
    this.activeFlags[row] = active;
    for (const [key, { field, col }] of this.columns) fillRow(col, row, this.valueAt(key, field, record));
  }

  isActive(row: number): boolean {
    return this.activeFlags[row] === 1;
  }

  private valueAt(key: ColumnKey, field: FieldDefinition | undefined, r: RecordData) {
    return field ? valueOf(r, field) : { start: r[key as SystemDate], end: null };
  }

  private column(key: ColumnKey, field: FieldDefinition | undefined): Column {
    const have = this.columns.get(key);
    if (have) return have.col;
    const col = newColumn(field ? valueSpecOf(field.field_type) : VALUE_TYPE_SPECS.date, this.records.length);
    for (let row = 0; row < this.records.length; row++) fillRow(col, row, this.valueAt(key, field, this.records[row]!));
    this.columns.set(key, { field, col });
    return col;
  }

  /** A row predicate for the filters (all must match), identical to compileFilters. */
  compile(filters: readonly ResolvedFilter[]): RowPredicate | undefined {
    const predicates = filters.map((f) => this.compileOne(f));
    if (predicates.length === 0) return undefined;
    if (predicates.length === 1) return predicates[0]!;
    return (row) => {
      for (let i = 0; i < predicates.length; i++) if (!predicates[i]!(row)) return false;
      return true;
    };
  }

  /** Active rows the filters match, in row order. */
  match(filters: readonly ResolvedFilter[]): number[] {
    const p = this.compile(filters);
    const out: number[] = [];
    const flags = this.activeFlags;
    const n = this.records.length;
    if (!p) {
      for (let row = 0; row < n; row++) if (flags[row] === 1) out.push(row);
      return out;
    }
    for (let row = 0; row < n; row++) if (flags[row] === 1 && p(row)) out.push(row);
    return out;
  }

  /** Active rows the filters match, counted. */
  count(filters: readonly ResolvedFilter[]): number {
    if (filters.length === 0) return this.activeCount;
    const p = this.compile(filters)!;
    const flags = this.activeFlags;
    let total = 0;
    for (let row = 0; row < this.records.length; row++) if (flags[row] === 1 && p(row)) total++;
    return total;
  }

  private compileOne(f: ResolvedFilter): RowPredicate {
    if (f.kind === 'system_date') return dateTest(this.column(f.which, undefined).num, f.match, f.bound);
    const field = f.field;
    return columnFilter(f, this.column(field.field_id, field), () => {
      const byRecord = VALUE_TYPE_SPECS[f.type].compile(
        f,
        (r: RecordData) => valueOf(r, field),
        isMulti(field.field_type),
      );
      return (row) => byRecord(this.records[row]!);
    });
  }

  /**
   * Rows `offset` to `offset + limit` of `rows` in sortRecords order (no field: row order, reversed when
   * descending). Keeps only the rows needed (a bounded heap) instead of sorting every match.
   */
  page(
    rows: readonly number[],
    field: FieldDefinition | undefined,
    desc: boolean,
    offset: number,
    limit: number,
  ): number[] {
    if (!field) {
      if (!desc) return rows.slice(offset, offset + limit);
      const out: number[] = [];
      for (let i = rows.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(rows[i]!);
      return out;
    }
    const col = this.column(field.field_id, field);
    const cmp = comparator(col, desc);
    const k = offset + limit;
    if (k <= 0) return [];
    if (k * 4 >= rows.length) return [...rows].sort(cmp).slice(offset, k);
    return topK(rows, k, cmp).slice(offset, k);
  }
}
