// Counts the untyped payload types in a .d.ts that openapi-typescript generated
// (`openapi.d.ts`): every `unknown`, `object` and `Record<string, never>` type, found with
// the TypeScript compiler's own parser (comments never count). Left out, as they type no
// payload: the generator's fixed top-level aliases `webhooks` and `$defs`, the open index
// signature it adds to every response's `headers`, and the `NoData` component, the one
// exact type of the closed empty object `{}` (api/openapi_build.py NO_DATA).
// Prints `{"count": N, "found": ["<path>: <type>", ...]}`; exits 1 when N > 0
// (tests/e2e/test_generated_ts_client.py runs it).
import { readFileSync } from "node:fs";
import ts from "typescript";

const SKIPPED_ALIASES = new Set(["webhooks", "$defs"]);
const EXACT = new Set(["NoData"]);

export function untyped(file, text = readFileSync(file, "utf8")) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found = [];
  const name = (node) => (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : null);
  const visit = (node, path) => {
    if (ts.isTypeAliasDeclaration(node) && SKIPPED_ALIASES.has(node.name.text)) return;
    if (ts.isPropertySignature(node)) {
      const here = name(node);
      if (EXACT.has(here) && path.at(-1) === "schemas") return;
      path = [...path, here];
    }
    if (ts.isIndexSignatureDeclaration(node) && path.at(-1) === "headers") return;
    let what = null;
    if (node.kind === ts.SyntaxKind.UnknownKeyword) what = "unknown";
    else if (node.kind === ts.SyntaxKind.ObjectKeyword) what = "object";
    else if (ts.isTypeReferenceNode(node) && node.typeName.getText(source) === "Record" &&
             node.typeArguments?.length === 2 && node.typeArguments[1].kind === ts.SyntaxKind.NeverKeyword) {
      what = "Record<string, never>";
    }
    if (what !== null) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${path.join(".")} (line ${line + 1}): ${what}`);
    }
    ts.forEachChild(node, (child) => visit(child, path));
  };
  visit(source, []);
  return found;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const found = process.argv.slice(2).flatMap((file) => untyped(file));
  console.log(JSON.stringify({ count: found.length, found }, null, 1));
  process.exitCode = found.length === 0 ? 0 : 1;
}
