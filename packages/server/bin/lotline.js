#!/usr/bin/env node
import { main } from "../dist/cli/main.js";

const code = await main(process.argv.slice(2));
// serve and demo keep running; every other command ends here with its exit code.
if (code !== 0) process.exit(code);
