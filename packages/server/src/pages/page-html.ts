import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { HttpProblem } from "../http/problem.js";

/** The built page files of the web package (`dist/<name>.html`). */
export type PageName = "new-order" | "property-profile" | "footprint-selection" | "login";

/**
 * The built pages of one `dist` folder, each read once per process and kept. A page that is missing (the web
 * package was not built) is looked for again on the next request, so building while the service runs is enough.
 */
export class PageFiles {
  private readonly pages = new Map<PageName, string>();

  /** `folder` is undefined when the web package itself cannot be found; `problem` then says why. */
  constructor(
    private readonly folder: string | undefined,
    private readonly problem = "",
  ) {}

  /** The page's HTML; throws a 503 `pages_not_built` problem when the file is not there. */
  async html(name: PageName): Promise<string> {
    const cached = this.pages.get(name);
    if (cached !== undefined) return cached;
    if (this.folder === undefined) throw notBuilt(this.problem);
    let html: string;
    try {
      html = await readFile(join(this.folder, `${name}.html`), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notBuilt(`${name}.html is missing`);
      throw error;
    }
    if (!html.includes("</head>")) throw new Error(`${name}.html has no </head> to put the page's data before`);
    this.pages.set(name, html);
    return html;
  }
}

function notBuilt(why: string): HttpProblem {
  return new HttpProblem(
    503,
    "pages_not_built",
    "Service Unavailable",
    `the embeddable pages are not built (${why}): run \`npm run build\``,
    { "cache-control": "no-store" },
  );
}

/**
 * `html` with `value` as a JSON data block (`<script type="application/json" id="…">`) just before `</head>`.
 * Every `<` is written `\u003c`, so no value (an organization name, a label) can close the element or open a
 * comment; the JSON reads back unchanged.
 */
export function withInlineJson(html: string, id: string, value: unknown): string {
  const json = JSON.stringify(value).replaceAll("<", "\\u003c");
  const block = `<script type="application/json" id="${id}">${json}</script>`;
  const at = html.indexOf("</head>");
  return `${html.slice(0, at)}${block}${html.slice(at)}`;
}
