import { stat } from "node:fs/promises";
import { pipeline } from "node:stream";
import Assembler from "stream-json/assembler.js";
import type { Token } from "stream-json/parser.js";
import batch, { type BatchOptions } from "stream-json/utils/batch.js";
import withParser from "stream-json/utils/with-parser.js";
import type { SourceRecord } from "../types.js";
import { type Reprojection, reprojectionFrom } from "./crs.js";
import { readFeatureLines } from "./feature-collection-lines.js";
import { featureRecord } from "./feature-record.js";
import { isGeometryType } from "./geometry.js";
import { isJsonObject, messageOf, preview } from "./json-value.js";
import { openSource } from "./open-source.js";
import type { ReadOptions } from "./read-options.js";
import { SourceError } from "./source-error.js";
import { topologyRecords } from "./topology-records.js";

/**
 * Follows the JSON tokens of a GeoJSON document. The members of the top-level object are assembled whole, except
 * `features`: each element of that array is assembled on its own and handed out as soon as it is complete, so only
 * one feature is held at a time however long the array. A top-level array is taken as an array of features.
 */
class GeoJsonDocument {
  /** The top-level members seen so far, except `features`. */
  readonly members: Record<string, unknown> = {};
  /** Features handed out so far. */
  count = 0;
  /** Whether a `features` array (or a top-level array) was streamed. */
  streamed = false;
  private started = false;
  private ended = false;
  private key: string | null = null;
  private member: Assembler | null = null;
  private inFeatures = false;
  private element: Assembler | null = null;
  private reprojection: Reprojection | null | undefined;

  constructor(
    private readonly path: string,
    private readonly crs: string | undefined,
  ) {}

  /** Feeds one token; returns the record of a feature that this token completed. */
  push(token: Token): SourceRecord | undefined {
    if (this.element) return this.continueFeature(token);
    if (this.member) {
      this.member.consume(token);
      if (this.member.done) this.endMember(this.member.current);
      return undefined;
    }
    if (this.inFeatures) {
      if (token.name === "endArray") {
        this.inFeatures = false;
        if (this.key === null) this.ended = true; // the top-level array ended
        this.key = null;
        return undefined;
      }
      this.element = new Assembler();
      return this.continueFeature(token);
    }
    if (!this.started) return this.start(token);
    if (token.name === "endObject") {
      this.ended = true;
      return undefined;
    }
    if (token.name === "keyValue") {
      this.key = token.value;
      return undefined;
    }
    if (this.key === "features" && token.name === "startArray") {
      this.inFeatures = true;
      this.streamed = true;
      return undefined;
    }
    this.member = new Assembler();
    this.member.consume(token);
    if (this.member.done) this.endMember(this.member.current);
    return undefined;
  }

  /** The records left once the document has ended: the document itself when it was one Feature or geometry. */
  *finish(options: ReadOptions): Generator<SourceRecord, void, undefined> {
    if (!this.ended) throw new SourceError("unreadable_source", `${this.path}: the JSON ends too early`);
    if (this.streamed) return;
    const { type } = this.members;
    if (type === "FeatureCollection") {
      if (this.members.features === undefined) return;
      throw new SourceError("unreadable_source", `${this.path}: the FeatureCollection's features are not an array`);
    }
    if (type === "Topology") {
      yield* topologyRecords(this.members, options, this.path);
      return;
    }
    if (type === "Feature" || isGeometryType(type)) {
      yield featureRecord(1, this.members, this.projection(), true);
      return;
    }
    throw new SourceError(
      "unreadable_source",
      `${this.path}: not GeoJSON: expected a FeatureCollection, Feature or geometry, found type ${preview(type)}`,
    );
  }

  private start(token: Token): undefined {
    this.started = true;
    if (token.name === "startObject") return undefined;
    if (token.name === "startArray") {
      this.inFeatures = true;
      this.streamed = true;
      return undefined;
    }
    throw new SourceError(
      "unreadable_source",
      `${this.path}: not GeoJSON: the file holds a single value, not an object`,
    );
  }

  private continueFeature(token: Token): SourceRecord | undefined {
    const element = this.element as Assembler;
    element.consume(token);
    if (!element.done) return undefined;
    this.element = null;
    this.count += 1;
    return featureRecord(this.count, element.current, this.projection(), false);
  }

  private endMember(value: unknown): void {
    if (this.key !== null) this.members[this.key] = value;
    this.member = null;
    this.key = null;
  }

  /** The reprojection to apply, decided at the first feature: `options.crs`, else a `crs` member seen before it. */
  private projection(): Reprojection | null {
    this.reprojection ??= reprojectionBefore(this.members, this.path, this.crs);
    return this.reprojection;
  }
}

/** The reprojection of the features after `members`: `crs` (the option), else a `crs` member among them. */
function reprojectionBefore(
  members: Record<string, unknown>,
  path: string,
  crs: string | undefined,
): Reprojection | null {
  if (crs !== undefined) return reprojectionFrom(crs, "--crs");
  const named = crsMemberName(members.crs);
  return named === undefined ? null : reprojectionFrom(named, `${path} (its "crs" member)`);
}

/** The name in a GeoJSON 2008 `crs` member (`{"type": "name", "properties": {"name": "EPSG:2249"}}`), if any. */
function crsMemberName(crs: unknown): string | undefined {
  if (!isJsonObject(crs) || crs.type !== "name" || !isJsonObject(crs.properties)) return undefined;
  const { name } = crs.properties;
  return typeof name === "string" ? name : undefined;
}

/**
 * Streams the features of a GeoJSON file (RFC 7946): a FeatureCollection, read one feature at a time so that a file
 * of a million features is never held in memory; or a single Feature or bare geometry (read whole, number 1); or a
 * top-level array of Features. Each feature's number is its 1-based position. An element that is not a Feature,
 * or whose coordinates cannot be read, is an error record. Coordinates are WGS 84 unless `options.crs` or a GeoJSON
 * 2008 `crs` member that comes before the features says otherwise. A `.json` file that turns out to be TopoJSON is
 * read as TopoJSON (whole). Invalid JSON ends the reading with a {@link SourceError}: nothing after it can be read.
 */
export async function* readGeoJson(
  path: string,
  options: ReadOptions,
  byLine = false,
): AsyncGenerator<SourceRecord, void, undefined> {
  if ((await stat(path)).size === 0) throw new SourceError("unreadable_source", `${path}: the file is empty`);
  // A FeatureCollection of one feature a line (`byLine`, see `laidOutByLine`) is read a line at a time; where that
  // layout ends short of the collection's end, the tokens take over, past the features read.
  let read = 0;
  if (byLine) {
    const lines = readFeatureLines(path, options, (members) => reprojectionBefore(members, path, options.crs));
    try {
      let step = await lines.next();
      for (; !step.done; step = await lines.next()) yield step.value;
      if (step.value === "ended") return;
      read = step.value;
    } finally {
      // Closes the file when the caller stops early.
      await lines.return(0);
    }
  }
  const document = new GeoJsonDocument(path, options.crs);
  // Tokens come in batches of 1,000, which costs one await per batch instead of one per token.
  const tokens = withParser.asStream<BatchOptions>(batch<Token>, { batchSize: 1000, streamValues: false });
  pipeline(await openSource(path, options), tokens, () => {});
  const batches = tokens[Symbol.asyncIterator]() as AsyncIterator<Token[]>;
  try {
    for (;;) {
      let step: IteratorResult<Token[]>;
      try {
        step = await batches.next();
      } catch (thrown) {
        throw unreadable(path, thrown, document.count);
      }
      if (step.done) break;
      for (const token of step.value) {
        const record = document.push(token);
        if (record && record.number > read) yield record;
      }
    }
  } finally {
    tokens.destroy();
  }
  yield* document.finish(options);
}

function unreadable(path: string, thrown: unknown, count: number): SourceError {
  if (thrown instanceof SourceError) return thrown;
  const where = count > 0 ? ` after feature ${count}` : "";
  if (typeof thrown === "object" && thrown !== null && "syscall" in thrown) {
    return new SourceError("unreadable_source", `${path}: cannot read the file: ${messageOf(thrown)}`);
  }
  return new SourceError("unreadable_source", `${path}: not valid JSON${where}: ${messageOf(thrown)}`);
}
