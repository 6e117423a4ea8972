import type { Command } from "./command.js";

/** What `lotline <command> --help` adds to a command's usage line: what it does, and one example to copy. */
export interface CommandHelp {
  summary: string;
  example: string;
}

/** The help of every command, by its name; a test checks that no command is missing. */
export const HELP: Record<string, CommandHelp> = {
  serve: {
    summary: "Serves the data API, the pages and the background work; every setting may be given as a flag.",
    example: "lotline serve --port 8080 --public-url https://lotline.acme.example --role all",
  },
  migrate: { summary: "Brings the database schema up to date.", example: "lotline migrate" },
  demo: {
    summary: "Loads the generated demo data and a demo organization, prints its credentials and serves.",
    example: "lotline demo",
  },
  "org create": {
    summary: "Creates an organization and prints its webhook secret (once).",
    example: 'lotline org create --name "Acme Mutual" --json',
  },
  "client create": {
    summary: "Creates a data API client; prints its secret (once), the audience and the token URL.",
    example: "lotline client create --org ORG_ID --json",
  },
  "client revoke": {
    summary: "Revokes a data API client: no new tokens at once, its tokens stop working within 30 seconds.",
    example: "lotline client revoke --client CLIENT_ID",
  },
  "iframe-key create": {
    summary: "Creates an iframe API key for the iframe sign-in; prints it once.",
    example: "lotline iframe-key create --org ORG_ID --json",
  },
  "iframe-key list": {
    summary: "Lists the organization's iframe API keys: ids, when created and revoked (never the keys).",
    example: "lotline iframe-key list --org ORG_ID --json",
  },
  "iframe-key revoke": {
    summary: "Revokes an iframe API key: no sign-in at once, its iframe JWTs stop working within 30 seconds.",
    example: "lotline iframe-key revoke --key KEY_ID",
  },
  "endpoint add": {
    summary: "Registers a host page origin allowed to frame the organization's pages.",
    example: "lotline endpoint add --org ORG_ID --origin https://core.acme.example",
  },
  "endpoint list": {
    summary: "Lists the organization's registered host origins.",
    example: "lotline endpoint list --org ORG_ID",
  },
  "endpoint remove": {
    summary: "Removes a registered host origin.",
    example: "lotline endpoint remove --org ORG_ID --origin https://core.acme.example",
  },
  "callback add": {
    summary: "Registers a URL prefix that the organization's callback URLs may start with.",
    example: "lotline callback add --org ORG_ID --prefix https://core.acme.example/hooks/",
  },
  "callback list": {
    summary: "Lists the organization's callback URL prefixes.",
    example: "lotline callback list --org ORG_ID",
  },
  "callback remove": {
    summary: "Removes a callback URL prefix.",
    example: "lotline callback remove --org ORG_ID --prefix https://core.acme.example/hooks/",
  },
  "keys rotate": {
    summary: "Makes a new signing key; the old one stays published for 48 hours.",
    example: "lotline keys rotate --json",
  },
  "keys revoke": {
    summary: "Emergency: withdraws a signing key; every token it signed stops working within 30 seconds.",
    example: "lotline keys revoke KID --json",
  },
  "product-matrix create": {
    summary: "Creates a product matrix: a named choice of the data products an order computes.",
    example:
      'lotline product-matrix create --org ORG_ID --name "Underwriting" --products parcel,structures,third_party',
  },
  "custom-field add": {
    summary:
      "Defines a policy field of the organization's own, checked on every order and shown on the new-order page.",
    example: 'lotline custom-field add --org ORG_ID --key year_built --label "Year built" --type number --required',
  },
  "import parcels": {
    summary:
      "Imports parcels all-or-nothing, from one file or several (a state's towns, with --name); --id-field names " +
      "the property holding the parcel's id, unique across the files.",
    example:
      'lotline import parcels parcels.topojson --id-field ML --name "Cambridge parcels" --provider "City of Cambridge GIS"',
  },
  "import buildings": {
    summary: "Imports building footprints; each belongs to the parcel holding most of it.",
    example: 'lotline import buildings Buildings.zip --name "Cambridge buildings"',
  },
  "import addresses": {
    summary:
      "Imports street addresses, located through a parcel id column or their own coordinates; an address in parts " +
      "(OpenAddresses) names them: --address-column NUMBER,STREET,UNIT --city-column CITY --state-column REGION " +
      "--postcode-column POSTCODE --lon-column LON --lat-column LAT.",
    example:
      "lotline import addresses assessor.csv --address-column Location --join-parcel ML --city Cambridge --state MA",
  },
  "import layer": {
    summary:
      "Imports a layer (flood zones, hydrants, …) as third-party data, from one file or several (a state's counties) " +
      "into one dataset; importing it again replaces it.",
    example: 'lotline import layer fema-floodplain-100yr.geojson --name "FEMA 1% flood zone" --provider FEMA',
  },
  "import event": {
    summary:
      "Imports a catastrophe event's area (polygons), finds every organization's ordered properties inside it and " +
      "sends each monitoring organization with impacted properties one event.impacted webhook.",
    example:
      'lotline import event ida-flood-extent.geojson --name "Hurricane Ida flooding" --peril flood --date 2021-09-01 --json',
  },
  "orders import": {
    summary: "Places a CSV of orders as one batch, as POST /v1/order-batches takes it; bad rows are listed.",
    example: 'lotline orders import renewals.csv --org ORG_ID --name "2027 renewals" --json',
  },
  "datasets list": {
    summary: "Lists the imported datasets: kind, namespace, provenance, records, import time and extent.",
    example: "lotline datasets list --json",
  },
  "datasets remove": {
    summary: "Removes a dataset and computes again the property records it touched.",
    example: 'lotline datasets remove "FEMA 1% flood zone" --json',
  },
};

/** `--help` or `-h` anywhere in the arguments. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === "--help" || arg === "-h");
}

/**
 * The help of the commands named by the words before the first flag: `client create` → that command; `import` →
 * the four imports. Undefined when no command starts with those words.
 */
export function helpFor(argv: readonly string[], usages: Record<string, string>): string | undefined {
  const words = argv
    .slice(
      0,
      argv.findIndex((arg) => arg.startsWith("-")),
    )
    .slice(0, 2);
  const prefix = words.join(" ");
  const names = Object.keys(usages).filter((name) => name === prefix || name.startsWith(`${prefix} `));
  if (names.length === 0) return undefined;
  return names
    .map((name) => {
      const help = HELP[name];
      return [
        `usage: lotline ${usages[name]}`,
        ...(help ? [`  ${help.summary}`, `  example: ${help.example}`] : []),
      ].join("\n");
    })
    .join("\n\n");
}

/** Every command's usage line by its name, from the command table and the three commands outside it. */
export function usagesOf(commands: Record<string, Command>, special: Record<string, string>): Record<string, string> {
  return {
    ...special,
    ...Object.fromEntries(Object.entries(commands).map(([name, command]) => [name, command.usage])),
  };
}
