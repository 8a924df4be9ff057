// Lists every cast (`x as T`, `<T>x`), non-null assertion (`x!`) and `any` type in the
// TypeScript files given as arguments, using the TypeScript compiler's own parser; exits 1
// when there is one (tests/e2e/test_sdk_ts.py runs it over sdk/, examples/, tests/).
import { readFileSync } from "node:fs";
import ts from "typescript";

const found = [];
for (const file of process.argv.slice(2)) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const visit = (node) => {
    let what = null;
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText() === "const")) what = "as cast";
    else if (ts.isTypeAssertionExpression(node)) what = "<T> cast";
    else if (ts.isNonNullExpression(node)) what = "non-null assertion";
    else if (node.kind === ts.SyntaxKind.AnyKeyword) what = "any";
    else if (ts.isSatisfiesExpression?.(node)) what = null;
    if (what !== null) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${file}:${line + 1}:${character + 1}: ${what}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const line of found) console.log(line);
process.exitCode = found.length === 0 ? 0 : 1;
