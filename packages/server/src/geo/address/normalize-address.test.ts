import { describe, expect, it } from "vitest";
import { formatAddress, type NormalizedAddress, normalizeAddress } from "./index.js";

/** `{ number, numberLow, numberHigh }` for a plain house number. */
const at = (number: string, low = Number(number), high = low) => ({ number, numberLow: low, numberHigh: high });

describe("normalizeAddress: whole results", () => {
  const cases: [string, NormalizedAddress][] = [
    ["120 Gore Street", { ...at("120"), street: "GORE", suffix: "ST" }],
    ["120 GORE ST.", { ...at("120"), street: "GORE", suffix: "ST" }],
    ["30-32 Sciarappa St", { ...at("30-32", 30, 32), street: "SCIARAPPA", suffix: "ST" }],
    ["219 Monsignor O'Brien Highway", { ...at("219"), street: "MONSIGNOR OBRIEN", suffix: "HWY" }],
    ["1 N Main St Apt 4B", { ...at("1"), predir: "N", street: "MAIN", suffix: "ST", unitType: "APT", unit: "4B" }],
    ["100 North St", { ...at("100"), street: "NORTH", suffix: "ST" }],
    ["12 1/2 Elm Ave", { ...at("12 1/2", 12.5), street: "ELM", suffix: "AVE" }],
    ["5 Main St #3", { ...at("5"), street: "MAIN", suffix: "ST", unitType: "#", unit: "3" }],
    [
      "350 Main Street, Cambridge, Massachusetts 02142-1234",
      {
        ...at("350"),
        street: "MAIN",
        suffix: "ST",
        city: "CAMBRIDGE",
        state: "MA",
        postcode: "02142",
        plus4: "1234",
      },
    ],
    ["12 - 14 Elm St", { ...at("12-14", 12, 14), street: "ELM", suffix: "ST" }],
    ["12 -14 Elm St", { ...at("12-14", 12, 14), street: "ELM", suffix: "ST" }],
    ["012 Elm St", { ...at("012", 12), street: "ELM", suffix: "ST" }],
    ["12 /2 Elm St", { ...at("12"), street: "2 ELM", suffix: "ST" }],
    ["12A Elm St", { ...at("12A", 12), street: "ELM", suffix: "ST" }],
    ["158 ELM ST NORTH", { ...at("158"), street: "ELM", suffix: "ST", postdir: "N" }],
    ["1 GRAY GDNS E", { ...at("1"), street: "GRAY", suffix: "GDNS", postdir: "E" }],
    ["1 Northeast Elm Boulevard", { ...at("1"), predir: "NE", street: "ELM", suffix: "BLVD" }],
    ["BROADWAY", { street: "BROADWAY" }],
    ["1 Broadway", { ...at("1"), street: "BROADWAY" }],
    ["REAR 65 MT AUBURN ST", { ...at("65"), street: "MT AUBURN", suffix: "ST", unitType: "REAR" }],
    [
      "1 Main St, Apt 4, Springfield, IL 62701",
      {
        ...at("1"),
        street: "MAIN",
        suffix: "ST",
        unitType: "APT",
        unit: "4",
        city: "SPRINGFIELD",
        state: "IL",
        postcode: "62701",
      },
    ],
  ];
  it.each(cases)("%s", (text, expected) => {
    expect(normalizeAddress(text)).toEqual(expected);
  });
});

describe("normalizeAddress: canonical form", () => {
  const cases: [string, string][] = [
    // case, spacing, punctuation
    ["120 gore street", "120 GORE ST"],
    ["  120   Gore    St  ", "120 GORE ST"],
    ["120 Gore St.,, Cambridge,, MA", "120 GORE ST, CAMBRIDGE, MA"],
    [",120 Gore St,", "120 GORE ST"],
    ["120 Gore St;", "120 GORE ST"],
    ["1 Rue Saint-Honoré", "1 RUE ST HONORE"],
    ["219 MONSIGNOR OBRIEN HWY", "219 MONSIGNOR OBRIEN HWY"],
    ["1 Mt. Auburn St.", "1 MT AUBURN ST"],
    // suffixes
    ["1 Elm Avenue", "1 ELM AVE"],
    ["1 Elm Av", "1 ELM AVE"],
    ["1 Elm Str", "1 ELM ST"],
    ["1 Elm Boulevard", "1 ELM BLVD"],
    ["1 Elm Circle", "1 ELM CIR"],
    ["1 Elm Terrace", "1 ELM TER"],
    ["1 Elm Place", "1 ELM PL"],
    ["1 Elm Parkway", "1 ELM PKWY"],
    ["1 Hancock Pk", "1 HANCOCK PARK"],
    ["1 Elm Court", "1 ELM CT"],
    ["1 Elm Lane", "1 ELM LN"],
    ["1 Elm Square", "1 ELM SQ"],
    ["1 Elm Turnpike", "1 ELM TPKE"],
    ["1 Elm Ramp", "1 ELM RAMP"],
    ["10 Coolidge Hill", "10 COOLIDGE HL"],
    ["1 Walker Street Place", "1 WALKER STREET PL"],
    ["1 Main St Extension", "1 MAIN ST EXT"],
    // directionals and names that look like them
    ["1 North Main Street", "1 N MAIN ST"],
    ["1 N. Main St.", "1 N MAIN ST"],
    ["1 Main St North", "1 MAIN ST N"],
    ["1 Park Ave S", "1 PARK AVE S"],
    ["1 East St", "1 EAST ST"],
    ["1 N St", "1 N ST"],
    ["1 West End Ave", "1 W END AVE"],
    ["1 Avenue N", "1 AVENUE N"],
    ["1 W Side Dr", "1 W SIDE DR"],
    // names
    ["1 Saint Paul St", "1 ST PAUL ST"],
    ["1 Mount Auburn Street", "1 MT AUBURN ST"],
    ["1 Mount St", "1 MOUNT ST"],
    ["1 First St", "1 1ST ST"],
    ["87.5 Sixth St", "87.5 6TH ST"],
    ["1 St Gerard Ter", "1 ST GERARD TER"],
    ["County Road 12", "COUNTY ROAD 12"],
    ["5 State Hwy 9", "5 STATE HIGHWAY 9"],
    ["5 Rte 2", "5 ROUTE 2"],
    ["1 Winston-Salem Rd", "1 WINSTON SALEM RD"],
    // house numbers
    ["107.5-109 Inman St", "107.5-109 INMAN ST"],
    ["14 1/2- 16 1/2 Woodbridge St", "14 1/2-16 1/2 WOODBRIDGE ST"],
    ["1-3-5 Speridakis Ter", "1-3-5 SPERIDAKIS TER"],
    ["16-16A-16B Grant St", "16-16A-16B GRANT ST"],
    ["126-C Oxford St", "126-C OXFORD ST"],
    ["12 A Plympton St", "12A PLYMPTON ST"],
    ["1 A St", "1 A ST"],
    ["394(390) Washington St", "394 WASHINGTON ST"],
    ["1 3rd St", "1 3RD ST"],
    ["1ST ST", "1ST ST"],
    // units
    ["5 Main St # 3", "5 MAIN ST # 3"],
    ["5 Main St Apt#3", "5 MAIN ST APT 3"],
    ["5 Main St Apartment 3", "5 MAIN ST APT 3"],
    ["5 Main St Suite 200", "5 MAIN ST STE 200"],
    ["5 Main St Ste. 200", "5 MAIN ST STE 200"],
    ["5 Main St Fl 3", "5 MAIN ST FL 3"],
    ["5 Main St Floor 3", "5 MAIN ST FL 3"],
    ["5 Main St Rm 12", "5 MAIN ST RM 12"],
    ["5 Main St Unit C-201", "5 MAIN ST UNIT C-201"],
    ["5 Main St, Unit 2", "5 MAIN ST UNIT 2"],
    ["5 Main St Rear", "5 MAIN ST REAR"],
    ["5 Main St Penthouse", "5 MAIN ST PH"],
    ["5 Main St Bldg 2 Rm 4", "5 MAIN ST BLDG 2 RM 4"],
    ["1 Crawford St #1/10", "1 CRAWFORD ST # 1/10"],
    ["89-91 Gore St #89/91#1", "89-91 GORE ST # 89/91#1"],
    ["126 Oxford St PS1", "126 OXFORD ST # PS1"],
    ["1 Kendall Sq-2", "1 KENDALL SQ # 2"],
    // place
    ["350 Main St, Cambridge, MA 02142", "350 MAIN ST, CAMBRIDGE, MA 02142"],
    ["350 main st cambridge ma 02142", "350 MAIN ST, CAMBRIDGE, MA 02142"],
    ["350 Main St Cambridge, MA", "350 MAIN ST, CAMBRIDGE, MA"],
    ["350 Main St, Cambridge MA", "350 MAIN ST, CAMBRIDGE, MA"],
    ["350 Main St, Cambridge", "350 MAIN ST, CAMBRIDGE"],
    ["350 Main St Cambridge", "350 MAIN ST, CAMBRIDGE"],
    ["350 Main St, MA 02142", "350 MAIN ST, MA 02142"],
    ["350 Main St 02142", "350 MAIN ST, 02142"],
    ["350 Main St, Cambridge, MA 021421234", "350 MAIN ST, CAMBRIDGE, MA 02142-1234"],
    ["350 Main St, Cambridge, MA, USA", "350 MAIN ST, CAMBRIDGE, MA"],
    ["350 5th Ave New York NY 10118", "350 5TH AVE, NEW YORK, NY 10118"],
    ["350 5th Ave, New York, New York", "350 5TH AVE, NEW YORK, NY"],
    ["350 5th Ave, New York", "350 5TH AVE, NEW YORK"],
    ["1 Main St Apt 4 Springfield IL 62701", "1 MAIN ST APT 4, SPRINGFIELD, IL 62701"],
    ["1 Elm Ct, Hartford, CT", "1 ELM CT, HARTFORD, CT"],
    ["1 Elm Ct Hartford CT 06103", "1 ELM CT, HARTFORD, CT 06103"],
    ["1 Duval St, Key West, FL", "1 DUVAL ST, KEY WEST, FL"],
    ["1 Elm St FL 33101", "1 ELM ST, FL 33101"],
    ["1 Elm St, Washington, DC 20001", "1 ELM ST, WASHINGTON, DC 20001"],
    ["1 Main St, Charleston, West Virginia", "1 MAIN ST, CHARLESTON, WV"],
    ["1 Elm St Apt 12345", "1 ELM ST APT 12345"],
    // no city/state guessed from street words
    ["1 Elm Ct", "1 ELM CT"],
    ["1 Ne St", "1 NE ST"],
    ["1 Main St NS", "1 MAIN ST # NS"],
  ];
  it.each(cases)("%s → %s", (text, expected) => {
    const address = normalizeAddress(text);
    expect(address && formatAddress(address)).toBe(expected);
  });
});

describe("normalizeAddress: no street", () => {
  it.each(["", "   ", ",,,", "120", "12-14", "#3", "PO Box 12", "P.O. Box 12", "Post Office Box 7"])("%j", (text) => {
    expect(normalizeAddress(text)).toBeUndefined();
  });
});

describe("normalizeAddress: defaults", () => {
  const defaults = { city: "Cambridge", state: "Massachusetts", postcode: "02139-4307" };

  it("fills in what the text leaves out, in normal form", () => {
    expect(normalizeAddress("120 Gore St", defaults)).toMatchObject({
      city: "CAMBRIDGE",
      state: "MA",
      postcode: "02139",
    });
  });

  it("gives way to what the text says", () => {
    expect(normalizeAddress("120 Gore St, Boston, NY 10001", defaults)).toMatchObject({
      city: "BOSTON",
      state: "NY",
      postcode: "10001",
    });
  });

  it("reads a line ending with the default city as that city", () => {
    expect(normalizeAddress("120 Gore St Cambridge", defaults)).toMatchObject({ street: "GORE", city: "CAMBRIDGE" });
  });

  it("keeps other words after the street as a unit when the city is known", () => {
    expect(normalizeAddress("1 Putnam Ave Ns", defaults)).toMatchObject({
      unitType: "#",
      unit: "NS",
      city: "CAMBRIDGE",
    });
  });

  it("accepts undefined fields", () => {
    expect(normalizeAddress("120 Gore St", { city: undefined, state: undefined })).toEqual({
      ...at("120"),
      street: "GORE",
      suffix: "ST",
    });
  });
});
