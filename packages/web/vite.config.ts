import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The four pages the server hosts; each becomes `dist/<name>.html` with its scripts and styles under `dist/assets`. */
const PAGES = ["new-order", "property-profile", "footprint-selection", "login"] as const;

const input = Object.fromEntries(
  PAGES.map((page) => [page, fileURLToPath(new URL(`./${page}.html`, import.meta.url))]),
);

export default defineConfig({
  base: "/",
  // JSX through Vite's own transform, with Preact's automatic runtime.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
    // The pages run under `script-src 'self'; worker-src 'self' blob:`: every script, style and worker must be a
    // file of our own origin, never inlined as a data: URL.
    assetsInlineLimit: 0,
    // Every browser that runs these pages knows <link rel="modulepreload">; the polyfill would only add weight.
    modulePreload: { polyfill: false },
    // MapLibre ships as one minified module of about 1.1 MB; it cannot be split further.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input,
      output: {
        // Libraries in chunks named after them, so a look at dist/assets says what each page loads.
        codeSplitting: {
          groups: [
            { name: "maplibre-gl", test: /node_modules[\\/]maplibre-gl[\\/]/ },
            { name: "terra-draw", test: /node_modules[\\/]terra-draw/ },
            { name: "preact", test: /node_modules[\\/]preact[\\/]/ },
            { name: "pages", test: /src[\\/]styles[\\/]/ },
          ],
        },
      },
    },
  },
});
