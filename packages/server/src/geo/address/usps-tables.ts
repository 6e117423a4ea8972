/**
 * The word tables of address normalization, all in this one file: USPS Publication 28 appendices C1 (street
 * suffixes), C2 (secondary unit designators) and B (directionals), the two-letter state codes, and a few tables of
 * our own (name words, ordinals, numbered highways).
 *
 * The `parse-address` package carries the same USPS tables but keeps them private to its parser (only the parse
 * functions are exported), so they are written out here; `usps-tables.test.ts` checks every spelling below against
 * that parser. Each row lists the standard abbreviation, then the primary (spelled-out) name first and every other
 * spelling that stands for it. A few spellings beyond Publication 28 that parse-address also accepts (`PK`, `LA`,
 * `TR`, `CK`, `CR`, `HT`) are kept: Cambridge writes `HANCOCK PK` for Hancock Park.
 */

const SUFFIX_ROWS = `
ALY ALLEY ALLEE ALLY
ANX ANNEX ANEX ANNX
ARC ARCADE
AVE AVENUE AV AVEN AVENU AVN AVNUE
BYU BAYOU BAYOO
BCH BEACH
BND BEND
BLF BLUFF BLUF
BLFS BLUFFS
BTM BOTTOM BOT BOTTM
BLVD BOULEVARD BOUL BOULV
BR BRANCH BRNCH
BRG BRIDGE BRDGE
BRK BROOK
BRKS BROOKS
BG BURG
BGS BURGS
BYP BYPASS BYPA BYPAS BYPS
CP CAMP CMP
CYN CANYON CANYN CNYN
CPE CAPE
CSWY CAUSEWAY CAUSWA CAUSWAY
CTR CENTER CEN CENT CENTR CENTRE CNTER CNTR
CTRS CENTERS
CIR CIRCLE CIRC CIRCL CRCL CRCLE
CIRS CIRCLES
CLF CLIFF
CLFS CLIFFS
CLB CLUB
CMN COMMON
CMNS COMMONS
COR CORNER
CORS CORNERS
CRSE COURSE
CT COURT CRT
CTS COURTS
CV COVE
CVS COVES
CRK CREEK CK CR
CRES CRESCENT CRSENT CRSNT CRECENT CRESENT CRSCNT
CRST CREST
XING CROSSING CRSSNG CRSSING
XRD CROSSROAD
XRDS CROSSROADS
CURV CURVE
DL DALE
DM DAM
DV DIVIDE DIV DVD
DR DRIVE DRIV DRV
DRS DRIVES
EST ESTATE
ESTS ESTATES
EXPY EXPRESSWAY EXP EXPR EXPRESS EXPW
EXT EXTENSION EXTN EXTNSN
EXTS EXTENSIONS
FALL FALL
FLS FALLS
FRY FERRY FRRY
FLD FIELD
FLDS FIELDS
FLT FLAT
FLTS FLATS
FRD FORD
FRDS FORDS
FRST FOREST FORESTS
FRG FORGE FORG
FRGS FORGES
FRK FORK
FRKS FORKS
FT FORT FRT
FWY FREEWAY FREEWY FRWAY FRWY
GDN GARDEN GARDN GRDEN GRDN
GDNS GARDENS GRDNS
GTWY GATEWAY GATEWY GATWAY GTWAY
GLN GLEN
GLNS GLENS
GRN GREEN
GRNS GREENS
GRV GROVE GROV
GRVS GROVES
HBR HARBOR HARB HARBR HRBOR
HBRS HARBORS
HVN HAVEN HAVN
HTS HEIGHTS HT HGTS HEIGHT
HWY HIGHWAY HIGHWY HIWAY HIWY HWAY
HL HILL
HLS HILLS
HOLW HOLLOW HLLW HOLLOWS HOLWS
INLT INLET
IS ISLAND ISLND
ISS ISLANDS ISLNDS
ISLE ISLE ISLES
JCT JUNCTION JCTION JCTN JUNCTN JUNCTON
JCTS JUNCTIONS JCTNS
KY KEY
KYS KEYS
KNL KNOLL KNOL
KNLS KNOLLS
LK LAKE
LKS LAKES
LAND LAND
LNDG LANDING LNDNG
LN LANE LANES LA
LGT LIGHT
LGTS LIGHTS
LF LOAF
LCK LOCK
LCKS LOCKS
LDG LODGE LDGE LODG
LOOP LOOP LOOPS
MALL MALL
MNR MANOR
MNRS MANORS
MDW MEADOW
MDWS MEADOWS MEDOWS
MEWS MEWS
ML MILL
MLS MILLS
MSN MISSION MISSN MSSN
MTWY MOTORWAY
MT MOUNT MNT
MTN MOUNTAIN MNTAIN MNTN MOUNTIN MTIN
MTNS MOUNTAINS MNTNS
NCK NECK
ORCH ORCHARD ORCHRD
OVAL OVAL OVL
OPAS OVERPASS
PARK PARK PARKS PRK PK
PKWY PARKWAY PARKWAYS PARKWY PKWAY PKWYS PKY
PASS PASS
PSGE PASSAGE
PATH PATH PATHS
PIKE PIKE PIKES
PNE PINE
PNES PINES
PL PLACE
PLN PLAIN
PLNS PLAINS PLAINES
PLZ PLAZA PLZA
PT POINT
PTS POINTS
PRT PORT
PRTS PORTS
PR PRAIRIE PRARIE PRR
RADL RADIAL RAD RADIEL
RAMP RAMP
RNCH RANCH RANCHES RNCHS
RPD RAPID
RPDS RAPIDS
RST REST
RDG RIDGE RDGE
RDGS RIDGES
RIV RIVER RIVR RVR
RD ROAD
RDS ROADS
RTE ROUTE
ROW ROW
RUE RUE
RUN RUN
SHL SHOAL
SHLS SHOALS
SHR SHORE SHOAR
SHRS SHORES SHOARS
SKWY SKYWAY
SPG SPRING SPNG SPRNG
SPGS SPRINGS SPNGS SPRNGS
SPUR SPUR SPURS
SQ SQUARE SQR SQRE SQU
SQS SQUARES SQRS
STA STATION STATN STN
STRA STRAVENUE STRAV STRAVE STRAVEN STRAVN STRVN STRVNUE
STRM STREAM STREME
ST STREET STR STRT
STS STREETS
SMT SUMMIT SUMIT SUMITT
TER TERRACE TERR
TRWY THROUGHWAY
TRCE TRACE TRACES
TRAK TRACK TRACKS TRK TRKS
TRFY TRAFFICWAY
TRL TRAIL TRAILS TRLS TR
TRLR TRAILER TRLRS
TUNL TUNNEL TUNEL TUNLS TUNNELS TUNNL
TPKE TURNPIKE TPK TRNPK TRPK TURNPK
UPAS UNDERPASS
UN UNION
UNS UNIONS
VLY VALLEY VALLY VLLY
VLYS VALLEYS
VIA VIADUCT VDCT VIADCT
VW VIEW
VWS VIEWS
VLG VILLAGE VILL VILLAG VILLG VILLIAGE
VLGS VILLAGES
VL VILLE
VIS VISTA VIST VST VSTA
WALK WALK WALKS
WALL WALL
WAY WAY WY
WAYS WAYS
WL WELL
WLS WELLS
`;

/** Publication 28 appendix B: directionals. */
const DIRECTIONAL_ROWS = `
N NORTH
S SOUTH
E EAST
W WEST
NE NORTHEAST
NW NORTHWEST
SE SOUTHEAST
SW SOUTHWEST
`;

/** Publication 28 appendix C2: secondary unit designators, with a few common misspellings (`APTS`, `FLR`, `BLD`). */
const UNIT_ROWS = `
APT APARTMENT APTS
BSMT BASEMENT
BLDG BUILDING BLD
DEPT DEPARTMENT
FL FLOOR FLR
FRNT FRONT
HNGR HANGAR
KEY KEY
LBBY LOBBY
LOT LOT
LOWR LOWER
OFC OFFICE
PH PENTHOUSE
PIER PIER
REAR REAR
RM ROOM
SIDE SIDE
SLIP SLIP
SPC SPACE
STOP STOP
STE SUITE
TRLR TRAILER
UNIT UNIT UNT
UPPR UPPER
`;

/** Designators that Publication 28 allows without a number after them (`REAR`, `PH`, …). */
const UNNUMBERED_UNITS = new Set(["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"]);

/** States, the District of Columbia and the territories that have USPS codes. */
const STATE_ROWS = `
AL ALABAMA
AK ALASKA
AS AMERICAN SAMOA
AZ ARIZONA
AR ARKANSAS
CA CALIFORNIA
CO COLORADO
CT CONNECTICUT
DE DELAWARE
DC DISTRICT OF COLUMBIA
FM FEDERATED STATES OF MICRONESIA
FL FLORIDA
GA GEORGIA
GU GUAM
HI HAWAII
ID IDAHO
IL ILLINOIS
IN INDIANA
IA IOWA
KS KANSAS
KY KENTUCKY
LA LOUISIANA
ME MAINE
MH MARSHALL ISLANDS
MD MARYLAND
MA MASSACHUSETTS
MI MICHIGAN
MN MINNESOTA
MS MISSISSIPPI
MO MISSOURI
MT MONTANA
NE NEBRASKA
NV NEVADA
NH NEW HAMPSHIRE
NJ NEW JERSEY
NM NEW MEXICO
NY NEW YORK
NC NORTH CAROLINA
ND NORTH DAKOTA
MP NORTHERN MARIANA ISLANDS
OH OHIO
OK OKLAHOMA
OR OREGON
PW PALAU
PA PENNSYLVANIA
PR PUERTO RICO
RI RHODE ISLAND
SC SOUTH CAROLINA
SD SOUTH DAKOTA
TN TENNESSEE
TX TEXAS
UT UTAH
VT VERMONT
VI VIRGIN ISLANDS
VA VIRGINIA
WA WASHINGTON
WV WEST VIRGINIA
WI WISCONSIN
WY WYOMING
`;

/** Ours: words shortened inside a street name (not when they are its last word: `MOUNT ST` is a street named Mount). */
const NAME_WORDS: ReadonlyMap<string, string> = new Map([
  ["SAINT", "ST"],
  ["MOUNT", "MT"],
  ["FORT", "FT"],
]);

/** Ours: spelled ordinals, written as USPS writes numbered streets (`FIRST ST` → `1ST ST`) when they are the whole name. */
const ORDINAL_WORDS = [
  "FIRST",
  "SECOND",
  "THIRD",
  "FOURTH",
  "FIFTH",
  "SIXTH",
  "SEVENTH",
  "EIGHTH",
  "NINTH",
  "TENTH",
  "ELEVENTH",
  "TWELFTH",
  "THIRTEENTH",
  "FOURTEENTH",
  "FIFTEENTH",
  "SIXTEENTH",
  "SEVENTEENTH",
  "EIGHTEENTH",
  "NINETEENTH",
  "TWENTIETH",
];

/** Ours: street types that, followed by a number, name a numbered road (`COUNTY ROAD 12`, `STATE HWY 9`). */
const HIGHWAY_TYPES = new Set(["HWY", "RD", "RTE", "FWY", "EXPY", "TPKE"]);

/** Ours: trailing words naming the country, dropped. */
export const COUNTRY_NAMES: readonly (readonly string[])[] = [
  ["UNITED", "STATES", "OF", "AMERICA"],
  ["UNITED", "STATES"],
  ["U", "S", "A"],
  ["USA"],
  ["U", "S"],
  ["US"],
];

/** Reads rows of "CODE SPELLING SPELLING …" into spelling → code, the code standing for itself too. */
function spellings(rows: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of rows.trim().split("\n")) {
    const [code = "", ...words] = line.split(" ");
    map.set(code, code);
    for (const word of words) map.set(word, code);
  }
  return map;
}

/** Reads rows of "CODE PRIMARY …" into code → primary spelled-out name. */
function primaries(rows: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of rows.trim().split("\n")) {
    const [code = "", primary = code] = line.split(" ");
    map.set(code, primary);
  }
  return map;
}

const SUFFIXES = spellings(SUFFIX_ROWS);
const SUFFIX_PRIMARIES = primaries(SUFFIX_ROWS);
const DIRECTIONALS = spellings(DIRECTIONAL_ROWS);
const UNITS = spellings(UNIT_ROWS);
const STATE_CODES = new Set(
  STATE_ROWS.trim()
    .split("\n")
    .map((line) => line.slice(0, 2)),
);
const STATE_NAMES: ReadonlyMap<string, string> = new Map(
  STATE_ROWS.trim()
    .split("\n")
    .map((line) => [line.slice(3), line.slice(0, 2)]),
);
/** Longest state name in words (`FEDERATED STATES OF MICRONESIA`). */
export const STATE_NAME_MAX_WORDS = Math.max(...[...STATE_NAMES.keys()].map((name) => name.split(" ").length));
const ORDINALS: ReadonlyMap<string, string> = new Map(
  ORDINAL_WORDS.map((word, index) => [word, ordinalNumeral(index + 1)]),
);

function ordinalNumeral(n: number): string {
  const tens = n % 100;
  const ending = tens >= 11 && tens <= 13 ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${n}${ending}`;
}

/** The standard suffix abbreviation that `word` spells (`STREET` → `ST`), if any. */
export function suffixOf(word: string): string | undefined {
  return SUFFIXES.get(word);
}

/** The spelled-out name of a standard suffix (`HWY` → `HIGHWAY`). */
export function suffixName(code: string): string {
  return SUFFIX_PRIMARIES.get(code) ?? code;
}

/** Whether `code` is a road type that may be followed by a road number (`COUNTY ROAD 12`). */
export function isHighwayType(code: string | undefined): boolean {
  return code !== undefined && HIGHWAY_TYPES.has(code);
}

/** The directional abbreviation that `word` spells (`NORTH` → `N`), if any. */
export function directionalOf(word: string): string | undefined {
  return DIRECTIONALS.get(word);
}

/** The unit designator abbreviation that `word` spells (`SUITE` → `STE`), if any; `#` stands for itself. */
export function unitDesignatorOf(word: string): string | undefined {
  return word === "#" ? "#" : UNITS.get(word);
}

/** Whether a unit designator may stand without a value (`REAR`, `PH`). */
export function isUnnumberedUnit(code: string): boolean {
  return UNNUMBERED_UNITS.has(code);
}

/** The state code for a name or code (`MASSACHUSETTS` or `MA` → `MA`), if it is one. */
export function stateOf(words: string): string | undefined {
  if (STATE_CODES.has(words)) return words;
  return STATE_NAMES.get(words);
}

/** The standard form of a word inside a street name (`SAINT` → `ST`); `undefined` when it stays as it is. */
export function nameWordOf(word: string): string | undefined {
  return NAME_WORDS.get(word);
}

/** The numeral ordinal for a spelled one (`SIXTH` → `6TH`), if it is one of the first twenty. */
export function ordinalOf(word: string): string | undefined {
  return ORDINALS.get(word);
}

/** Whether `word` means something in a street line: a suffix, a directional or a unit designator. */
export function isStreetWord(word: string): boolean {
  return SUFFIXES.has(word) || DIRECTIONALS.has(word) || UNITS.has(word);
}

/** Every spelling → code pair of the suffix table (for autocomplete and the cross-check test). */
export function suffixSpellings(): ReadonlyMap<string, string> {
  return SUFFIXES;
}

/** Every spelling → code pair of the directional table. */
export function directionalSpellings(): ReadonlyMap<string, string> {
  return DIRECTIONALS;
}

/** Every spelling → code pair of the unit designator table. */
export function unitSpellings(): ReadonlyMap<string, string> {
  return UNITS;
}

/** Every state name → code pair. */
export function stateNames(): ReadonlyMap<string, string> {
  return STATE_NAMES;
}
