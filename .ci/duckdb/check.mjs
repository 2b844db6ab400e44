#!/usr/bin/env node
// Independent reader check of schedsim run directories with DuckDB.
//
//   node check.mjs [--swf TRACE.swf[.gz]] RUN_DIR [RUN_DIR…]
//
// For each run directory it reads jobs.parquet, summary.parquet,
// timeseries.parquet and nodes.parquet with DuckDB's read_parquet (not with
// the Arrow/Parquet library that wrote them) and checks them against
// summary.csv and run.yaml:
//
//   (a) jobs.parquet has one row per submitted job (summary.csv jobs) and its
//       rows by state match jobs_completed / jobs_killed / jobs_rejected /
//       jobs_unfinished (queued + running);
//   (b) summary.parquet has exactly one row, whose jobs, makespan_s,
//       mean_wait_s, max_wait_s and energy_j equal summary.csv's;
//   (c) avg and max of jobs.parquet's non-null wait_s equal summary.csv's
//       mean_wait_s and max_wait_s; sum(runtime_s) is finite and positive;
//   (d) timeseries.parquet has rows, time_s never decreases in file order and
//       every non-null utilization_* value is within [0, 1];
//   (e) nodes.parquet has run.yaml's provenance.cluster.nodes rows;
//   (f) calendar time: when run.yaml's provenance.trace.epoch (RFC 3339) is
//       set, DuckDB reads jobs.submit_time, start_time, end_time and
//       timeseries.time as TIMESTAMP or TIMESTAMPTZ (a Parquet timestamp
//       adjusted to UTC gives TIMESTAMPTZ), every value is epoch + its
//       second count (submit_s, start_s, end_s, time_s) to the microsecond,
//       null exactly where the count is null, and the files' schedsim.epoch
//       metadata names the same instant; without an epoch none of those
//       columns exists;
//   (g) with --swf, the runs replayed that SWF log: provenance.trace.sha256
//       is the file's SHA-256, provenance.trace.epoch its header's
//       UnixStartTime and provenance.trace.time_zone its TimeZoneString.
//
// Floats are compared with a relative tolerance of 1e-9; a null (an empty
// field in summary.csv) equals only a null. It prints one line per check and
// exits 1 if any check fails (2 on a usage error).

import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';

const REL_TOL = 1e-9;
const OK = '✓';
const BAD = '✗';

// ---------------------------------------------------------------------------
// Small helpers

// parseCSV parses RFC 4180 text: fields separated by commas, records by LF or
// CRLF, a field in double quotes may hold commas, newlines and "" for a quote.
export function parseCSV(text) {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // BOM
  const rows = [];
  let row = [];
  let field = '';
  let i = 0;
  let quoted = false; // inside a quoted field
  let sawQuote = false; // the current field was quoted (so "" is a field, not nothing)
  const n = text.length;
  const endField = () => {
    row.push(field);
    field = '';
    sawQuote = false;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '' || sawQuote) {
        throw new Error(`CSV: stray quote in an unquoted field at offset ${i}`);
      }
      quoted = true;
      sawQuote = true;
      i++;
    } else if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 2;
    } else if (c === '\n') {
      endRow();
      i++;
    } else {
      if (sawQuote) throw new Error(`CSV: text after a closing quote at offset ${i}`);
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('CSV: unterminated quoted field');
  if (field !== '' || sawQuote || row.length > 0) endRow(); // last record without a newline
  return rows;
}

// readSummaryCSV returns summary.csv as column name → text ("" for a null).
function readSummaryCSV(path) {
  const rows = parseCSV(readFileSync(path, 'utf8'));
  if (rows.length !== 2) {
    throw new Error(`${path}: want a header and one row, got ${rows.length} record(s)`);
  }
  const [header, values] = rows;
  if (header.length !== values.length) {
    throw new Error(`${path}: header has ${header.length} fields, the row ${values.length}`);
  }
  const m = new Map();
  header.forEach((name, i) => {
    if (m.has(name)) throw new Error(`${path}: column ${name} appears twice`);
    m.set(name, values[i]);
  });
  return m;
}

// provenanceScalar reads provenance.SECTION.KEY from run.yaml: the KEY
// directly under the SECTION mapping of the top-level `provenance:` section
// (the cluster's source text may also mention nodes, so a bare /nodes:/
// search is not enough). A plain, 'single'- or "double"-quoted scalar comes
// back as its text; a missing key as null.
function provenanceScalar(path, section, key) {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  const prov = lines.findIndex((l) => /^provenance:\s*(#.*)?$/.test(l));
  if (prov < 0) throw new Error(`${path}: no provenance section`);
  let start = -1;
  for (let i = prov + 1; i < lines.length; i++) {
    if (/^\S/.test(lines[i])) break; // the next top-level key: provenance is over
    if (lines[i] === `  ${section}:` || new RegExp(`^  ${section}:\\s*#`).test(lines[i])) {
      start = i;
      break;
    }
  }
  if (start < 0) throw new Error(`${path}: no provenance.${section} key`);
  let indent = null;
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue; // blank or comment
    const lead = line.match(/^ */)[0].length;
    if (lead <= 2) break; // the next key of provenance: the section is over
    if (indent === null) indent = lead; // the block's child indentation
    if (lead !== indent) continue; // deeper: a nested value
    const rest = line.slice(lead);
    if (!rest.startsWith(`${key}:`)) continue;
    const v = rest.slice(key.length + 1).trim();
    let m;
    if ((m = v.match(/^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/))) return JSON.parse(`"${m[1]}"`);
    if ((m = v.match(/^'((?:[^']|'')*)'\s*(#.*)?$/))) return m[1].replaceAll("''", "'");
    return v.replace(/\s+#.*$/, '');
  }
  return null;
}

function clusterNodes(path) {
  const v = provenanceScalar(path, 'cluster', 'nodes');
  if (v === null || !/^\d+$/.test(v)) throw new Error(`${path}: provenance.cluster.nodes is not an integer: ${fmt(v)}`);
  return BigInt(v);
}

// rfc3339Micros parses an RFC 3339 date-time ("1996-09-23T12:00:31Z",
// fractions and numeric offsets allowed) to Unix microseconds (BigInt).
// Strict on purpose: Date.parse would take many other shapes.
export function rfc3339Micros(s) {
  const m = String(s).match(
    /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d\d):(\d\d))$/,
  );
  if (!m) throw new Error(`not an RFC 3339 date-time: ${JSON.stringify(s)}`);
  const [, y, mo, d, h, mi, sec, frac = '', , sign, oh, om] = m;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== +y || back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23 || +mi > 59 || +sec > 59) {
    throw new Error(`not a valid date-time: ${JSON.stringify(s)}`);
  }
  let us = BigInt(ms) * 1000n + BigInt((frac + '000000').slice(0, 6));
  if (sign) us -= (sign === '-' ? -1n : 1n) * BigInt((+oh * 60 + +om) * 60) * 1000000n;
  return us;
}

// swfHeader reads the `; Key: value` header lines of an SWF log (gzipped
// when it starts with gzip's magic bytes) and the file's SHA-256.
function swfHeader(path) {
  const raw = readFileSync(path);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  const header = new Map();
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*$/.test(line)) continue;
    if (!line.trimStart().startsWith(';')) break; // the first job record ends the header
    const m = line.match(/^\s*;\s*([A-Za-z]+):\s*(.*?)\s*$/);
    if (m && !header.has(m[1])) header.set(m[1], m[2]);
  }
  return { sha256, header };
}

const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

// fmt prints a value the same way for BigInt, number and null.
const fmt = (v) => (v === null || v === undefined ? 'null' : String(v));

function relDiff(a, b) {
  if (a === b) return 0;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return Math.abs(a - b) / scale;
}

// floatsEqual: both null, or both finite within REL_TOL.
function floatsEqual(a, b) {
  if (a === null || b === null) return a === null && b === null;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return relDiff(a, b) <= REL_TOL;
}

// csvFloat converts summary.csv text to a number, "" to null.
function csvFloat(m, name) {
  if (!m.has(name)) throw new Error(`summary.csv has no ${name} column`);
  const s = m.get(name).trim();
  if (s === '') return null;
  const v = Number(s);
  if (Number.isNaN(v) && s !== 'NaN') throw new Error(`summary.csv ${name}: not a number: ${JSON.stringify(s)}`);
  return v;
}

function csvInt(m, name) {
  if (!m.has(name)) throw new Error(`summary.csv has no ${name} column`);
  const s = m.get(name).trim();
  if (!/^-?\d+$/.test(s)) throw new Error(`summary.csv ${name}: not an integer: ${JSON.stringify(s)}`);
  return BigInt(s);
}

const toNum = (v) => (v === null || v === undefined ? null : Number(v));
const toBig = (v) => (v === null || v === undefined ? null : BigInt(v));

// ---------------------------------------------------------------------------
// The checks

class Run {
  constructor(dir, conn, swf) {
    this.dir = dir;
    this.conn = conn;
    this.swf = swf; // { path, sha256, header } from --swf, or null
    this.passed = 0;
    this.failures = [];
  }

  pq(name) {
    return `read_parquet(${sqlString(join(this.dir, name))})`;
  }

  async rows(sql) {
    const reader = await this.conn.runAndReadAll(sql);
    return reader.getRowObjectsJS();
  }

  async one(sql) {
    const r = await this.rows(sql);
    if (r.length !== 1) throw new Error(`query returned ${r.length} rows, want 1: ${sql}`);
    return r[0];
  }

  result(ok, line) {
    console.log(`  ${line} ${ok ? OK : BAD}`);
    if (ok) this.passed++;
    else this.failures.push(line);
  }

  // eqInt prints "left L = right R" and records whether L == R (BigInt).
  eqInt(left, l, right, r) {
    const ok = l !== null && r !== null && BigInt(l) === BigInt(r);
    this.result(ok, `${left} ${fmt(l)} ${ok ? '=' : '≠'} ${right} ${fmt(r)}`);
  }

  eqFloat(left, l, right, r) {
    const ok = floatsEqual(l, r);
    let note = '';
    if (l !== null && r !== null && Number.isFinite(l) && Number.isFinite(r) && l !== r) {
      note = ` (rel. diff ${relDiff(l, r).toExponential(2)}, tol ${REL_TOL})`;
    }
    this.result(ok, `${left} ${fmt(l)} ${ok ? '≈' : '≠'} ${right} ${fmt(r)}${note}`);
  }

  // guard runs one group of checks; an error (a missing file, a missing
  // column) fails the group instead of stopping the other groups.
  async guard(label, fn) {
    try {
      await fn();
    } catch (e) {
      this.result(false, `${label}: ${e.message}`);
    }
  }

  async check() {
    console.log(`${this.dir}`);
    for (const f of ['jobs.parquet', 'summary.parquet', 'timeseries.parquet', 'nodes.parquet', 'summary.csv', 'run.yaml']) {
      if (!existsSync(join(this.dir, f))) this.result(false, `${f} missing`);
    }
    if (this.failures.length > 0) return;

    const csv = readSummaryCSV(join(this.dir, 'summary.csv'));

    // (a) jobs rows and states
    await this.guard('(a) jobs.parquet', async () => {
      const { n } = await this.one(`SELECT count(*) AS n FROM ${this.pq('jobs.parquet')}`);
      this.eqInt('(a) jobs.parquet rows', n, 'summary.csv jobs', csvInt(csv, 'jobs'));

      const byState = new Map(
        (await this.rows(`SELECT state, count(*) AS n FROM ${this.pq('jobs.parquet')} GROUP BY state ORDER BY state`))
          .map((r) => [r.state, BigInt(r.n)]),
      );
      const known = ['completed', 'killed', 'rejected', 'queued', 'running'];
      const count = (s) => byState.get(s) ?? 0n;
      for (const s of ['completed', 'killed', 'rejected']) {
        this.eqInt(`(a) jobs.parquet state=${s}`, count(s), `summary.csv jobs_${s}`, csvInt(csv, `jobs_${s}`));
      }
      this.eqInt(
        `(a) jobs.parquet state=queued+running (${count('queued')}+${count('running')})`,
        count('queued') + count('running'),
        'summary.csv jobs_unfinished',
        csvInt(csv, 'jobs_unfinished'),
      );
      const other = [...byState.keys()].filter((s) => !known.includes(s));
      this.result(
        other.length === 0,
        `(a) jobs.parquet states ⊆ {${known.join(', ')}}` +
          (other.length ? `: unexpected ${other.map((s) => `${fmt(s)} (${byState.get(s)} rows)`).join(', ')}` : ''),
      );
    });

    // (b) summary.parquet against summary.csv
    await this.guard('(b) summary.parquet', async () => {
      const rows = await this.rows(`SELECT * FROM ${this.pq('summary.parquet')}`);
      this.eqInt('(b) summary.parquet rows', BigInt(rows.length), 'expected', 1n);
      if (rows.length !== 1) return;
      const s = rows[0];
      const pqCols = Object.keys(s).sort();
      const csvCols = [...csv.keys()].sort();
      const missing = csvCols.filter((c) => !pqCols.includes(c));
      const extra = pqCols.filter((c) => !csvCols.includes(c));
      const same = missing.length === 0 && extra.length === 0;
      this.result(
        same,
        `(b) summary.parquet columns (${pqCols.length}) ${same ? '=' : '≠'} summary.csv header (${csvCols.length})` +
          (missing.length ? `; missing in parquet: ${missing.join(', ')}` : '') +
          (extra.length ? `; not in csv: ${extra.join(', ')}` : ''),
      );
      this.eqInt('(b) summary.parquet jobs', toBig(s.jobs), 'summary.csv jobs', csvInt(csv, 'jobs'));
      for (const c of ['makespan_s', 'mean_wait_s', 'max_wait_s', 'energy_j']) {
        if (!(c in s)) throw new Error(`summary.parquet has no ${c} column`);
        this.eqFloat(`(b) summary.parquet ${c}`, toNum(s[c]), `summary.csv ${c}`, csvFloat(csv, c));
      }
    });

    // (c) job-level aggregates against the summary
    await this.guard('(c) jobs.parquet aggregates', async () => {
      const a = await this.one(
        `SELECT avg(wait_s) AS mean_wait, max(wait_s) AS max_wait, count(wait_s) AS started,
                sum(runtime_s) AS runtime_sum, isfinite(sum(runtime_s)) AS runtime_finite
           FROM ${this.pq('jobs.parquet')}`,
      );
      this.eqFloat(
        `(c) avg(jobs.wait_s) over ${a.started} non-null`,
        toNum(a.mean_wait),
        'summary.csv mean_wait_s',
        csvFloat(csv, 'mean_wait_s'),
      );
      this.eqFloat('(c) max(jobs.wait_s)', toNum(a.max_wait), 'summary.csv max_wait_s', csvFloat(csv, 'max_wait_s'));
      const sum = toNum(a.runtime_sum);
      this.result(
        a.runtime_finite === true && sum !== null && sum > 0,
        `(c) sum(jobs.runtime_s) ${fmt(sum)} finite and > 0`,
      );
    });

    // (d) timeseries
    await this.guard('(d) timeseries.parquet', async () => {
      const cols = (await this.rows(`DESCRIBE SELECT * FROM ${this.pq('timeseries.parquet')}`)).map((r) => r.column_name);
      const utilCols = cols.filter((c) => c.startsWith('utilization_'));
      const t = await this.one(
        `SELECT count(*) AS n,
                count(*) FILTER (WHERE time_s IS NULL OR isnan(time_s)) AS bad_time,
                count(*) FILTER (WHERE time_s < prev) AS decreases,
                min(time_s) AS first_t, max(time_s) AS last_t
           FROM (SELECT time_s, lag(time_s) OVER (ORDER BY file_row_number) AS prev
                   FROM read_parquet(${sqlString(join(this.dir, 'timeseries.parquet'))}, file_row_number = true))`,
      );
      this.result(BigInt(t.n) >= 1n, `(d) timeseries.parquet rows ${t.n} ≥ 1`);
      this.result(
        BigInt(t.decreases) === 0n && BigInt(t.bad_time) === 0n,
        `(d) timeseries.parquet time_s non-decreasing in file order (${fmt(t.first_t)} … ${fmt(t.last_t)}): ` +
          `${t.decreases} decrease(s), ${t.bad_time} null/NaN`,
      );
      this.result(utilCols.length > 0, `(d) timeseries.parquet utilization_* columns: ${utilCols.join(', ') || 'none'}`);
      for (const c of utilCols) {
        const q = `"${c.replaceAll('"', '""')}"`;
        const u = await this.one(
          `SELECT min(${q}) AS lo, max(${q}) AS hi, count(*) - count(${q}) AS nulls,
                  count(*) FILTER (WHERE ${q} IS NOT NULL AND (isnan(${q}) OR ${q} < 0 OR ${q} > 1)) AS outside
             FROM ${this.pq('timeseries.parquet')}`,
        );
        this.result(
          BigInt(u.outside) === 0n,
          `(d) timeseries.parquet ${c} in [0, 1]: min ${fmt(u.lo)}, max ${fmt(u.hi)}, ` +
            `${u.outside} outside, ${u.nulls} null (no capacity)`,
        );
      }
    });

    // (e) nodes
    await this.guard('(e) nodes.parquet', async () => {
      const { n } = await this.one(`SELECT count(*) AS n FROM ${this.pq('nodes.parquet')}`);
      this.eqInt('(e) nodes.parquet rows', n, 'run.yaml provenance.cluster.nodes', clusterNodes(join(this.dir, 'run.yaml')));
    });

    // (f) calendar time
    await this.guard('(f) calendar time', () => this.checkCalendar());

    // (g) the SWF log the runs replayed
    if (this.swf) await this.guard('(g) --swf', () => this.checkSWF());
  }

  // The timestamp columns and the second counts they must equal.
  static calendarColumns = [
    ['jobs.parquet', 'submit_time', 'submit_s'],
    ['jobs.parquet', 'start_time', 'start_s'],
    ['jobs.parquet', 'end_time', 'end_s'],
    ['timeseries.parquet', 'time', 'time_s'],
  ];

  async columnTypes(file) {
    const rows = await this.rows(`DESCRIBE SELECT * FROM ${this.pq(file)}`);
    return new Map(rows.map((r) => [r.column_name, r.column_type]));
  }

  async checkCalendar() {
    const yaml = join(this.dir, 'run.yaml');
    const epochText = provenanceScalar(yaml, 'trace', 'epoch');
    const types = new Map();
    for (const file of new Set(Run.calendarColumns.map(([f]) => f))) types.set(file, await this.columnTypes(file));
    if (epochText === null) {
      const present = Run.calendarColumns.filter(([f, c]) => types.get(f).has(c)).map(([f, c]) => `${f} ${c}`);
      this.result(
        present.length === 0,
        `(f) no provenance.trace.epoch: no timestamp columns` + (present.length ? `, but found ${present.join(', ')}` : ''),
      );
      return;
    }
    const epoch = rfc3339Micros(epochText);
    console.log(`  (f) provenance.trace.epoch ${epochText} = ${epoch} µs since 1970-01-01T00:00:00Z`);

    for (const file of types.keys()) {
      const meta = await this.rows(
        `SELECT decode(value) AS v FROM parquet_kv_metadata(${sqlString(join(this.dir, file))})
          WHERE decode(key) = 'schedsim.epoch'`,
      );
      const ok = meta.length === 1 && rfc3339Micros(meta[0].v) === epoch;
      this.result(ok, `(f) ${file} metadata schedsim.epoch ${meta.length === 1 ? meta[0].v : `(${meta.length} values)`} ${ok ? '=' : '≠'} run.yaml epoch`);
    }

    for (const [file, ts, secs] of Run.calendarColumns) {
      const type = types.get(file).get(ts);
      if (type === undefined) {
        this.result(false, `(f) ${file} has no ${ts} column though run.yaml has an epoch`);
        continue;
      }
      const isTS = type === 'TIMESTAMP' || type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ';
      this.result(isTS, `(f) ${file} ${ts} read as ${type}${isTS ? '' : ', want TIMESTAMP or TIMESTAMPTZ'}`);
      if (!isTS) continue;
      // epoch_us of a TIMESTAMPTZ is its UTC instant; of a TIMESTAMP, the
      // wall time read as UTC, which is what a UTC writer's naive value is.
      const q = `"${ts}"`;
      const c = await this.one(
        `SELECT count(*) AS n, count(${q}) AS nonnull,
                count(*) FILTER (WHERE (${q} IS NULL) <> (${secs} IS NULL)) AS null_mismatch,
                count(*) FILTER (WHERE ${q} IS NOT NULL AND ${secs} IS NOT NULL
                                   AND epoch_us(${q}) - ${epoch} <> round(${secs} * 1e6)::BIGINT) AS off,
                max(abs((epoch_us(${q}) - ${epoch}) - ${secs} * 1e6)) AS worst_us,
                min(${q})::VARCHAR AS first, max(${q})::VARCHAR AS last
           FROM ${this.pq(file)}`,
      );
      this.result(
        BigInt(c.off) === 0n && BigInt(c.null_mismatch) === 0n && BigInt(c.nonnull) > 0n,
        `(f) ${file} ${ts} = epoch + ${secs} over ${c.nonnull} non-null of ${c.n} rows (${c.first} … ${c.last}): ` +
          `${c.off} differ (worst ${fmt(toNum(c.worst_us))} µs), ${c.null_mismatch} null in one column only`,
      );
    }
  }

  checkSWF() {
    const yaml = join(this.dir, 'run.yaml');
    const { path, sha256, header } = this.swf;
    const got = provenanceScalar(yaml, 'trace', 'sha256');
    this.result(got === sha256, `(g) provenance.trace.sha256 ${fmt(got)} ${got === sha256 ? '=' : '≠'} sha256 of ${path} ${sha256}`);

    const start = header.get('UnixStartTime');
    if (start === undefined || !/^-?\d+$/.test(start)) throw new Error(`${path}: no integer UnixStartTime in the header`);
    const epochText = provenanceScalar(yaml, 'trace', 'epoch');
    const epoch = epochText === null ? null : rfc3339Micros(epochText);
    const want = BigInt(start) * 1000000n;
    const iso = new Date(Number(start) * 1000).toISOString().replace('.000Z', 'Z');
    this.result(
      epoch === want,
      `(g) provenance.trace.epoch ${fmt(epochText)} ${epoch === want ? '=' : '≠'} header UnixStartTime ${start} (${iso})`,
    );

    const zone = header.get('TimeZoneString');
    if (zone !== undefined) {
      const got = provenanceScalar(yaml, 'trace', 'time_zone');
      this.result(got === zone, `(g) provenance.trace.time_zone ${fmt(got)} ${got === zone ? '=' : '≠'} header TimeZoneString ${zone}`);
    }
  }
}

async function main() {
  const args = process.argv.slice(2);
  const usage = 'usage: node check.mjs [--swf TRACE.swf[.gz]] RUN_DIR [RUN_DIR…]';
  if (args.includes('-h') || args.includes('--help')) {
    console.log(usage);
    process.exit(0);
  }
  let swf = null;
  const i = args.indexOf('--swf');
  if (i >= 0) {
    const path = args[i + 1];
    if (path === undefined || !existsSync(path) || !statSync(path).isFile()) {
      console.error(`check.mjs: --swf ${path ?? ''}: not a file\n${usage}`);
      process.exit(2);
    }
    swf = { path, ...swfHeader(path) };
    args.splice(i, 2);
  }
  if (args.length === 0) {
    console.error(usage);
    process.exit(2);
  }
  for (const a of args) {
    if (!existsSync(a) || !statSync(a).isDirectory()) {
      console.error(`check.mjs: ${a}: not a directory`);
      process.exit(2);
    }
  }

  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const { version } = (await (await conn.runAndReadAll('SELECT version() AS version')).getRowObjectsJS())[0];
  console.log(`DuckDB ${version} (@duckdb/node-api), relative float tolerance ${REL_TOL}`);

  let passed = 0;
  const failed = [];
  for (const a of args) {
    const run = new Run(resolve(a), conn, swf);
    await run.check();
    passed += run.passed;
    for (const f of run.failures) failed.push(`${a}: ${f}`);
  }
  conn.closeSync?.();
  instance.closeSync?.();

  if (failed.length > 0) {
    console.error(`\nFAIL: ${failed.length} check(s) failed, ${passed} passed, in ${args.length} run director${args.length === 1 ? 'y' : 'ies'}:`);
    for (const f of failed) console.error(`  ${f}`);
    process.exit(1);
  }
  console.log(`\nOK: all ${passed} checks passed in ${args.length} run director${args.length === 1 ? 'y' : 'ies'}`);
}

main().catch((e) => {
  console.error(`check.mjs: ${e.stack || e}`);
  process.exit(1);
});
