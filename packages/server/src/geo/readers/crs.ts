import { createRequire } from "node:module";
import type proj4 from "proj4";
import { messageOf, preview } from "./json-value.js";
import { SourceError } from "./source-error.js";

/** Turns a coordinate pair of the source's coordinate system into WGS 84 `[longitude, latitude]`. */
export type Reprojection = (x: number, y: number) => [number, number];

const WGS84 = "+proj=longlat +datum=WGS84 +no_defs";

/**
 * The coordinate systems known by EPSG code. Others can still be given as a proj4 string or as WKT (a `.prj`).
 * NAD83 is taken as equal to WGS 84 (proj4 applies no datum grid), which is good to a metre or two.
 */
const EPSG: Readonly<Record<number, string>> = {
  4326: WGS84,
  // NAD83, geographic
  4269: "+proj=longlat +datum=NAD83 +no_defs",
  // WGS 84 / Pseudo-Mercator (web maps)
  3857: "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs",
  // NAD83 / Massachusetts Mainland (ftUS): the City of Cambridge's basemap
  2249: "+proj=lcc +lat_0=41 +lon_0=-71.5 +lat_1=42.6833333333333 +lat_2=41.7166666666667 +x_0=200000.0001016 +y_0=750000 +datum=NAD83 +units=us-ft +no_defs",
  // NAD83 / Massachusetts Mainland (metres): MassGIS
  26986:
    "+proj=lcc +lat_0=41 +lon_0=-71.5 +lat_1=42.6833333333333 +lat_2=41.7166666666667 +x_0=200000 +y_0=750000 +datum=NAD83 +units=m +no_defs",
};

const KNOWN = "EPSG:4326, 4269, 3857, 2249, 26986 and the UTM zones 269NN (NAD83), 326NN and 327NN (WGS 84)";

/** The proj4 definition of an EPSG code, or undefined when it is not one this service knows. */
function epsgDefinition(code: number): string | undefined {
  const named = EPSG[code];
  if (named) return named;
  const zone = code % 100;
  if (code >= 26901 && code <= 26923) return `+proj=utm +zone=${zone} +datum=NAD83 +units=m +no_defs`;
  if (code >= 32601 && code <= 32660) return `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`;
  if (code >= 32701 && code <= 32760) return `+proj=utm +zone=${zone} +south +datum=WGS84 +units=m +no_defs`;
  return undefined;
}

/** WKT (the content of a `.prj`, WKT1 or WKT2) or a proj4 string, which proj4 reads as they are. */
const WKT_OR_PROJ4 = /^(?:PROJCS|GEOGCS|GEOCCS|COMPD_CS|PROJCRS|GEOGCRS|GEODCRS|COMPOUNDCRS|BOUNDCRS)\s*\[|^\+proj=/i;
const CRS84 = /^(?:OGC:)?CRS:?84$|^urn:ogc:def:crs:OGC:(?:1\.3)?:CRS84$/i;
const EPSG_NAME = /^(?:EPSG:{1,2}|urn:ogc:def:crs:EPSG:[\d.]*:)(\d+)$/i;

/** The proj4 definition a CRS text stands for. */
function definitionOf(crs: string, origin: string): string {
  if (WKT_OR_PROJ4.test(crs)) return crs;
  if (CRS84.test(crs)) return WGS84;
  const code = EPSG_NAME.exec(crs)?.[1];
  if (code === undefined) {
    throw new SourceError(
      "unknown_crs",
      `${origin}: ${preview(crs)} is not a coordinate system this service reads; give EPSG:N, a proj4 string or WKT`,
    );
  }
  const definition = epsgDefinition(Number(code));
  if (definition === undefined) {
    throw new SourceError(
      "unknown_crs",
      `${origin}: unknown coordinate system EPSG:${code}; known are ${KNOWN}; others can be given as a proj4 string or WKT`,
    );
  }
  return definition;
}

/**
 * The reprojection from a coordinate system to WGS 84 longitude/latitude, or null when it is WGS 84 already.
 * `crs` is `EPSG:N`, `urn:ogc:def:crs:EPSG::N`, `CRS84`, a proj4 string or WKT; `origin` says where it came from
 * (`--crs`, a `.prj` file) for the error message when it cannot be used.
 *
 * @example
 * const toWgs84 = reprojectionFrom("EPSG:2249", "--crs");
 * toWgs84?.(765377.78, 2955291.45); // [-71.0959…, 42.3568…]
 */
export function reprojectionFrom(crs: string, origin: string): Reprojection | null {
  const definition = definitionOf(crs.trim(), origin);
  if (definition === WGS84) return null;
  let converter: proj4.Converter;
  try {
    converter = proj4Library()(definition, WGS84);
  } catch (thrown) {
    throw new SourceError(
      "unknown_crs",
      `${origin}: cannot read the coordinate system ${preview(crs)}: ${messageOf(thrown)}`,
    );
  }
  return (x, y) => {
    const [lon, lat] = converter.forward([x, y]);
    return [lon, lat];
  };
}

/**
 * proj4, loaded the first time a source needs reprojecting: most files are in WGS 84 already, and every import
 * command started some 40 ms later for loading it. It is CommonJS, so it loads synchronously.
 */
let proj4Module: typeof proj4 | undefined;
function proj4Library(): typeof proj4 {
  proj4Module ??= createRequire(import.meta.url)("proj4") as typeof proj4;
  return proj4Module;
}
