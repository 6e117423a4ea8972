import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey, formatAddress, type NormalizedAddress, normalizeAddress, scoreCandidate } from "./index.js";
import { similarity } from "./similarity.js";
import {
  directionalSpellings,
  isStreetWord,
  ordinalOf,
  stateNames,
  stateOf,
  suffixSpellings,
  unitSpellings,
} from "./usps-tables.js";

/** The parts of an address as someone might type them, each a list of words. */
interface Typed {
  number?: string[];
  predir?: string;
  name: string[];
  suffix?: [spelling: string, code: string];
  postdir?: string;
  unit?: [designator: string, value: string];
  city?: string[];
  state?: string;
  zip?: string;
}

const REAL_NAMES = [
  "GORE",
  "SCIARAPPA",
  "MONSIGNOR OBRIEN",
  "MASSACHUSETTS",
  "MT AUBURN",
  "ST PAUL",
  "BROADWAY",
  "ELM",
];
const CITIES = ["CAMBRIDGE", "SPRINGFIELD", "NEW YORK", "SALT LAKE CITY", "BOSTON"];

const spellingsOf = (table: ReadonlyMap<string, string>) => [...table.entries()];
const word = fc
  .stringMatching(/^[A-Z]{3,9}$/)
  .filter((w) => !isStreetWord(w) && !stateOf(w) && !ordinalOf(w) && !["USA", "SAINT", "MOUNT", "FORT"].includes(w));
const name = fc.oneof(
  fc.constantFrom(...REAL_NAMES).map((n) => n.split(" ")),
  fc.array(word, { minLength: 1, maxLength: 3 }),
);
const houseNumber = fc.oneof(
  fc.integer({ min: 1, max: 9999 }).map((n) => [String(n)]),
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 8 })).map(([n, d]) => [`${n}-${n + d}`]),
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom("A", "B", "R")).map(([n, l]) => [`${n}${l}`]),
  fc.integer({ min: 1, max: 500 }).map((n) => [String(n), "1/2"]),
);
const directional = fc.constantFrom(...spellingsOf(directionalSpellings()).map(([spelling]) => spelling));
const suffix = fc.constantFrom(...spellingsOf(suffixSpellings()));
const unitDesignator = fc.constantFrom(
  "#",
  ...spellingsOf(unitSpellings())
    .filter(([, code]) => !["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"].includes(code))
    .map(([spelling]) => spelling),
);
const unitValue = fc.oneof(fc.integer({ min: 1, max: 999 }).map(String), fc.stringMatching(/^[A-Z][0-9]{1,3}$/));
const typed: fc.Arbitrary<Typed> = fc.record(
  {
    number: houseNumber,
    predir: directional,
    name,
    suffix,
    postdir: directional,
    unit: fc.tuple(unitDesignator, unitValue),
    city: fc.constantFrom(...CITIES).map((c) => c.split(" ")),
    state: fc.constantFrom(...[...stateNames()].flat()),
    zip: fc.stringMatching(/^\d{5}(-\d{4})?$/),
  },
  { requiredKeys: ["name"] },
);

type Style = "upper" | "lower" | "title";
const restyle = (text: string, style: Style) =>
  style === "upper"
    ? text.toUpperCase()
    : style === "lower"
      ? text.toLowerCase()
      : text.replace(/[A-Z]+/gi, (w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase());

/** Writes the parts as text, each word in its style, with the given spacing and optional periods after words. */
function render(parts: Typed, styles: Style[], spaces: string[], periods: boolean[], suffixSpelling?: string): string {
  let i = 0;
  const out = (w: string) => {
    const style = styles[i % styles.length] ?? "upper";
    const period = /^[A-Z]+$/i.test(w) && periods[i % periods.length] ? "." : "";
    const space = spaces[i % spaces.length] ?? " ";
    i += 1;
    return `${restyle(w, style)}${period}${space}`;
  };
  const line = [
    ...(parts.number ?? []),
    ...(parts.predir ? [parts.predir] : []),
    ...parts.name,
    ...(parts.suffix ? [suffixSpelling ?? parts.suffix[0]] : []),
    ...(parts.postdir ? [parts.postdir] : []),
    ...(parts.unit ?? []),
  ]
    .map(out)
    .join("");
  const region = [parts.state, parts.zip].filter(Boolean).join(" ");
  const place = [parts.city?.map(out).join(""), region && out(region)].filter(Boolean);
  return [line, ...place].join(`,${spaces[0] ?? " "}`);
}

const style = fc.array(fc.constantFrom<Style>("upper", "lower", "title"), { minLength: 1, maxLength: 5 });
const spacing = fc.array(fc.constantFrom(" ", "  ", " \t "), { minLength: 1, maxLength: 5 });
const punctuation = fc.array(fc.boolean(), { minLength: 1, maxLength: 5 });

function normalized(text: string): NormalizedAddress {
  const address = normalizeAddress(text);
  if (!address) throw new Error(`no street in ${JSON.stringify(text)}`);
  return address;
}

describe("normalizeAddress properties", () => {
  it("is idempotent on its own output", () => {
    fc.assert(
      fc.property(typed, (parts) => {
        const address = normalized(render(parts, ["upper"], [" "], [false]));
        expect(normalizeAddress(formatAddress(address))).toEqual(address);
      }),
    );
  });

  it("gives one addressKey for every case, spacing and punctuation of an address", () => {
    fc.assert(
      fc.property(typed, style, spacing, punctuation, (parts, styles, spaces, periods) => {
        const plain = normalized(render(parts, ["upper"], [" "], [false]));
        const varied = normalized(render(parts, styles, spaces, periods));
        expect(addressKey(varied)).toBe(addressKey(plain));
        expect(formatAddress(varied)).toBe(formatAddress(plain));
      }),
    );
  });

  it("gives one addressKey whichever spelling of the suffix is used", () => {
    const spellingsByCode = new Map<string, string[]>();
    for (const [spelling, code] of suffixSpellings()) {
      spellingsByCode.set(code, [...(spellingsByCode.get(code) ?? []), spelling]);
    }
    const withTwoSpellings = typed.chain((parts) => {
      const code = parts.suffix?.[1] ?? "ST";
      const spellings = spellingsByCode.get(code) ?? [code];
      return fc.tuple(
        fc.constant({ ...parts, suffix: [code, code] as [string, string] }),
        fc.constantFrom(...spellings),
      );
    });
    fc.assert(
      fc.property(withTwoSpellings, ([parts, spelling]) => {
        const abbreviated = normalized(render(parts, ["upper"], [" "], [false]));
        const spelled = normalized(render(parts, ["title"], [" "], [false], spelling));
        expect(spelled.suffix).toBe(parts.suffix?.[1]);
        expect(addressKey(spelled)).toBe(addressKey(abbreviated));
      }),
    );
  });
});

describe("scoreCandidate properties", () => {
  const address = typed.map((parts) => normalized(render(parts, ["upper"], [" "], [false])));

  it("scores an address against itself 1, and any pair within 0..1", () => {
    fc.assert(
      fc.property(address, address, (a, b) => {
        expect(scoreCandidate(a, a)).toBe(1);
        const score = scoreCandidate(a, b);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }),
    );
  });

  it("ranks its own range ≥ another number on the street ≥ another street", () => {
    const setup = fc.record({
      query: address,
      n: fc.integer({ min: 1, max: 5000 }),
      width: fc.integer({ min: 1, max: 6 }),
      away: fc.integer({ min: 1, max: 4000 }),
      other: name,
    });
    fc.assert(
      fc.property(setup, ({ query: base, n, width, away, other }) => {
        const otherStreet = other.join(" ");
        fc.pre(similarity(otherStreet, base.street) < 0.75);
        const query = { ...base, number: String(n), numberLow: n, numberHigh: n };
        const range = { ...query, number: `${n}-${n + width}`, numberLow: n, numberHigh: n + width };
        const elsewhere = n + width + away;
        const otherNumber = { ...query, number: String(elsewhere), numberLow: elsewhere, numberHigh: elsewhere };
        const different = { ...query, street: otherStreet };
        expect(scoreCandidate(query, range)).toBeGreaterThanOrEqual(scoreCandidate(query, otherNumber));
        expect(scoreCandidate(query, otherNumber)).toBeGreaterThanOrEqual(scoreCandidate(query, different));
        expect(scoreCandidate(query, otherNumber)).toBeLessThanOrEqual(0.5);
      }),
    );
  });

  it("falls as the house number moves away", () => {
    const setup = fc.tuple(address, fc.integer({ min: 1, max: 5000 }), fc.nat(3000), fc.nat(3000));
    fc.assert(
      fc.property(setup, ([base, n, d1, d2]) => {
        const query = { ...base, number: String(n), numberLow: n, numberHigh: n };
        const at = (d: number) => ({ ...query, number: String(n + d), numberLow: n + d, numberHigh: n + d });
        const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
        expect(scoreCandidate(query, at(near))).toBeGreaterThanOrEqual(scoreCandidate(query, at(far)));
      }),
    );
  });

  it("never scores lower for leaving out the place, a unit or a suffix the candidate has", () => {
    fc.assert(
      fc.property(address, address, (query, candidate) => {
        const score = scoreCandidate(query, candidate);
        const { city, state, postcode, plus4, ...placeless } = query;
        expect(scoreCandidate(placeless, candidate)).toBeGreaterThanOrEqual(score);
        const same = { ...candidate, city: query.city, state: query.state, postcode: query.postcode };
        expect(scoreCandidate(query, same)).toBeGreaterThanOrEqual(score);
        if (query.unit !== undefined && query.unit !== candidate.unit) {
          const { unit, unitType, ...unitless } = query;
          expect(scoreCandidate(unitless, candidate)).toBeGreaterThanOrEqual(score);
        }
        if (query.suffix !== undefined && query.suffix !== candidate.suffix && candidate.suffix !== undefined) {
          const { suffix, ...suffixless } = query;
          expect(scoreCandidate(suffixless, candidate)).toBeGreaterThanOrEqual(score);
        }
      }),
    );
  });

  it("scores a different city or state lower than the same or none", () => {
    fc.assert(
      fc.property(address, fc.constantFrom(...CITIES), (candidate, city) => {
        fc.pre(candidate.city !== undefined && candidate.city !== city);
        const exact = scoreCandidate({ ...candidate }, candidate);
        const elsewhere = scoreCandidate({ ...candidate, city }, candidate);
        expect(elsewhere).toBeLessThan(exact);
        expect(elsewhere).toBeLessThanOrEqual(0.9);
      }),
    );
  });
});
