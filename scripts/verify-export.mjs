#!/usr/bin/env node
// Verify exported match logs with the JavaScript reference verifier (api/web/js/verify.js,
// the module the web client runs in the browser): `node scripts/verify-export.mjs FILE...`
// ("-" reads standard input). Prints one JSON report per file, one a line:
// {"file", "valid", "format", "supported", "events", "checks", "errors"}. Exit code 0 when
// every log verifies, 1 otherwise, 2 for a file that cannot be read or parsed.
import { readFileSync } from "node:fs";
import { verifyExport } from "../api/web/js/verify.js";

const files = process.argv.slice(2);
if (!files.length) {
  console.error("usage: node scripts/verify-export.mjs FILE... ('-' for standard input)");
  process.exit(2);
}
let code = 0;
for (const file of files) {
  let log;
  try {
    log = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf-8"));
  } catch (error) {
    console.log(JSON.stringify({ file, valid: false, errors: [`cannot read: ${error.message}`] }));
    code = 2;
    continue;
  }
  const report = await verifyExport(log);
  console.log(JSON.stringify({ file, ...report }));
  if (!report.valid && code === 0) code = 1;
}
process.exit(code);
