/**
 * The dataset `bench:scale` measures with: Cambridge's real parcels, buildings, assessor addresses and layers,
 * tiled `tiles` times side by side (a grid of tiles 0.12° × 0.06° apart, the first where Cambridge is), plus a
 * generated footprint for every parcel on which no real building stands, so that a state's worth of parcels and
 * buildings can be made from one city. Written as GeoJSONSeq (one feature a line) and CSV, the formats a county
 * publishes at that size.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { bboxOf, containsPoint, representativePoint } from "../dist/geo/geometry/index.js";
import { readSource } from "../dist/geo/readers/index.js";

/** How far apart tiles are: a little more than Cambridge's extent, so tiles never overlap. */
const TILE_LON = 0.12;
const TILE_LAT = 0.06;

/** The layers tiled beside parcels and buildings, by their file in `layers/`. */
export const LAYERS = [
  "fema-floodplain-100yr",
  "fema-floodplain-500yr",
  "fire-stations",
  "hydrants",
  "swimming-pools",
  "zoning-districts",
  "historic-districts",
];

/** Where tile `tile` lies relative to Cambridge: columns eastward… westward, rows northward. */
export function tileOffset(tile, tiles) {
  const columns = Math.ceil(Math.sqrt(tiles));
  return { lon: -(tile % columns) * TILE_LON, lat: Math.floor(tile / columns) * TILE_LAT };
}

/** Tile 0's order points: a point inside every n-th numbered parcel of Cambridge (`data`), `count` of them. */
export async function orderPoints(data, count) {
  const parcels = [];
  for await (const record of readSource(join(data, "parcels-fy2014.topojson"))) {
    if ("feature" in record && /\d/.test(String(record.feature.properties.ML))) parcels.push(record.feature);
  }
  const step = Math.floor(parcels.length / count);
  return Array.from({ length: count }, (_, i) => representativePoint(parcels[i * step].geometry));
}

/** Writes the tiled files into `folder`; answers their paths and how many records each holds. */
export async function writeTiledDataset(data, folder, tiles) {
  const parcels = await readFeatures(join(data, "parcels-fy2014.topojson"));
  const buildings = await readFeatures(join(data, "buildings-east-cambridge", "Buildings.shp"));
  const generated = footprintsForEmptyParcels(parcels, buildings);
  const files = {
    parcels: join(folder, "parcels.geojsonl"),
    buildings: join(folder, "buildings.geojsonl"),
    addresses: join(folder, "addresses.csv"),
    layers: LAYERS.map((name) => ({ name, file: join(folder, `${name}.geojsonl`) })),
  };
  const counts = {};
  counts.parcels = await writeSeq(files.parcels, tiles, parcels, (feature, tile) => ({
    ...feature,
    properties: { ML: tiledId(feature.properties.ML, tile) },
  }));
  const footprints = [
    ...buildings.map((feature, i) => ({ ...feature, properties: { BID: `b${i + 1}` } })),
    ...generated.map((geometry, i) => ({ type: "Feature", geometry, properties: { BID: `g${i + 1}` } })),
  ];
  counts.buildings = await writeSeq(files.buildings, tiles, footprints, (feature, tile) => ({
    ...feature,
    properties: { BID: `${feature.properties.BID}/${tile}` },
  }));
  counts.addresses = await writeAddresses(join(data, "assessor-fy2014.csv"), files.addresses, tiles);
  counts.layers = 0;
  for (const layer of files.layers) {
    const features = await readFeatures(join(data, "layers", `${layer.name}.geojson`));
    counts.layers += await writeSeq(layer.file, tiles, features, (feature) => feature);
  }
  return { files, counts };
}

async function readFeatures(path) {
  const features = [];
  for await (const record of readSource(path)) if ("feature" in record) features.push(record.feature);
  return features;
}

/** A parcel id of tile `tile`: placeholders (no digit) stay what they are, and are rejected in every tile alike. */
function tiledId(id, tile) {
  const text = String(id ?? "");
  return /\d/.test(text) && tile > 0 ? `${text}/${tile}` : text;
}

/**
 * For every parcel with no real building's point inside it, a footprint: the parcel's outer ring shrunk to 40 %
 * about a point inside it, as many vertices as the lot has (a house of the lot's shape).
 */
function footprintsForEmptyParcels(parcels, buildings) {
  const points = buildings.map((building) => representativePoint(building.geometry));
  const footprints = [];
  for (const parcel of parcels) {
    const box = bboxOf(parcel.geometry);
    const built = points.some(
      ([lon, lat]) =>
        lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3] && containsPoint(parcel.geometry, [lon, lat]),
    );
    if (built) continue;
    const ring =
      parcel.geometry.type === "Polygon" ? parcel.geometry.coordinates[0] : parcel.geometry.coordinates[0][0];
    const [cx, cy] = representativePoint(parcel.geometry);
    footprints.push({
      type: "Polygon",
      coordinates: [ring.map(([lon, lat]) => [cx + (lon - cx) * 0.4, cy + (lat - cy) * 0.4])],
    });
  }
  return footprints;
}

/** Writes every feature once per tile, moved by the tile's offset and renamed by `rename`; answers the count. */
async function writeSeq(path, tiles, features, rename) {
  const out = createWriteStream(path);
  let count = 0;
  for (let tile = 0; tile < tiles; tile++) {
    const offset = tileOffset(tile, tiles);
    let chunk = "";
    for (const feature of features) {
      const moved = { ...rename(feature, tile), geometry: moveGeometry(feature.geometry, offset) };
      chunk += `${JSON.stringify(moved)}\n`;
      count += 1;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await once(out, "drain");
        chunk = "";
      }
    }
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return count;
}

function moveGeometry(geometry, offset) {
  const move = (value) =>
    typeof value[0] === "number"
      ? [round(value[0] + offset.lon), round(value[1] + offset.lat)]
      : value.map((inner) => move(inner));
  return { type: geometry.type, coordinates: move(geometry.coordinates) };
}

/** Seven decimals: a centimetre, as precise as the sources. */
const round = (degrees) => Math.round(degrees * 1e7) / 1e7;

/**
 * The assessor's rows once per tile: `ML` tiled like the parcels, and the address given the tile's own town and the
 * state (tile 0 is Cambridge), since the same street address in two towns is two addresses.
 */
async function writeAddresses(source, path, tiles) {
  const lines = [];
  for await (const record of readSource(source)) {
    if ("feature" in record) lines.push(record.feature.properties);
  }
  const out = createWriteStream(path);
  out.write("Location,ML\n");
  let count = 0;
  for (let tile = 0; tile < tiles; tile++) {
    let chunk = "";
    for (const row of lines) {
      chunk += `${csvCell(`${row.Location}, ${townOf(tile)}, MA`)},${csvCell(tiledId(row.ML, tile))}\n`;
      count += 1;
    }
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return count;
}

/** Cambridge for tile 0, then Tileton A, B, … Z, AA, AB, …: names without digits, as towns have. */
function townOf(tile) {
  if (tile === 0) return "Cambridge";
  let letters = "";
  for (let n = tile; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `Tileton ${letters}`;
}

const csvCell = (value) => {
  const text = String(value ?? "");
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
