import { forgetParsedShapes } from "../geo/store/parsed-shapes.js";

// Run before each test file (vitest's setupFiles). Test files share their worker's modules (vitest.config.ts), and
// each file makes databases of its own whose row ids and import ids repeat those of the file before: the shapes
// the process keeps by id must not outlive the file that read them.
forgetParsedShapes();
