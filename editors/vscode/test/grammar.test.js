// The TextMate grammar of `.jasset` files (syntaxes/jasset.tmLanguage.json), run by the
// engine VS Code uses (vscode-textmate with the Oniguruma regexes of vscode-oniguruma)
// over lines of each form of the format: each piece must get the scope a theme colours.
//
//   npm ci && npm test
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

const here = __dirname;
const grammarPath = path.join(here, "..", "syntaxes", "jasset.tmLanguage.json");

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.jasset") return null;
      const text = fs.readFileSync(grammarPath, "utf8");
      return textmate.parseRawGrammar(text, grammarPath);
    },
  });
  return registry.loadGrammar("source.jasset");
}

// Each token of `text` as { line, text, scopes }.
async function tokenize(text) {
  const grammar = await loadGrammar();
  let stack = textmate.INITIAL;
  const out = [];
  text.split("\n").forEach((line, n) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      out.push({ line: n, text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes });
    }
    stack = result.ruleStack;
  });
  return out;
}

// The scopes of the token of line `line` whose text is `piece`.
function scopesOf(tokens, line, piece) {
  const found = tokens.find((t) => t.line === line && t.text === piece);
  assert.ok(found, `no token ${JSON.stringify(piece)} on line ${line}: ${JSON.stringify(tokens.filter((t) => t.line === line))}`);
  return found.scopes;
}

function assertScope(tokens, line, piece, scope) {
  const scopes = scopesOf(tokens, line, piece);
  assert.ok(scopes.includes(scope), `${JSON.stringify(piece)} on line ${line} has ${scopes.join(" ")}, not ${scope}`);
}

const SAMPLE = [
  "# A comment",                             // 0
  "; Kind",                                  // 1
  "Inert",                                   // 2
  "// inside a block",                       // 3
  "; Position",                              // 4
  "142.5 -12.0 3e2",                         // 5
  "; template: Assets/Templates/Rock.jasset",// 6
  "EntityID: 0x0001000000000042",            // 7
  "IsDestructible: true",                    // 8
  "; Names",                                 // 9
  "\"big tree\"",                            // 10
  "rock: 2",                                 // 11
  "<<<<<<< ours",                            // 12
  "Owner: ~",                                // 13
].join("\n");

test("comments are comments, in and out of blocks", async () => {
  const tokens = await tokenize(SAMPLE);
  assertScope(tokens, 0, "#", "punctuation.definition.comment.jasset");
  assertScope(tokens, 0, " A comment", "comment.line.number-sign.jasset");
  assertScope(tokens, 3, " inside a block", "comment.line.double-slash.jasset");
});

test("headers: the semicolon and the key", async () => {
  const tokens = await tokenize(SAMPLE);
  assertScope(tokens, 1, ";", "punctuation.definition.header.jasset");
  assertScope(tokens, 1, "Kind", "support.type.property-name.jasset");
  assertScope(tokens, 6, "template", "support.type.property-name.jasset");
  assertScope(tokens, 6, "Assets/Templates/Rock.jasset", "string.unquoted.jasset");
});

test("compact properties: the key and the value", async () => {
  const tokens = await tokenize(SAMPLE);
  assertScope(tokens, 7, "EntityID", "support.type.property-name.jasset");
  assertScope(tokens, 7, "0x0001000000000042", "constant.numeric.hex.jasset");
  assertScope(tokens, 8, "true", "constant.language.boolean.jasset");
  assertScope(tokens, 13, "~", "constant.language.null.jasset");
});

test("value lines of a block are values, a map entry's key too", async () => {
  const tokens = await tokenize(SAMPLE);
  assertScope(tokens, 2, "Inert", "string.unquoted.jasset");
  assertScope(tokens, 5, "142.5", "constant.numeric.jasset");
  assertScope(tokens, 5, "-12.0", "constant.numeric.jasset");
  assertScope(tokens, 5, "3e2", "constant.numeric.jasset");
  assertScope(tokens, 10, "big tree", "string.quoted.double.jasset");
  // Inside the `Names` block, `rock: 2` is a value line (a map entry), not a property.
  const rock = scopesOf(tokens, 11, "rock:");
  assert.ok(!rock.includes("support.type.property-name.jasset"), rock.join(" "));
  assert.ok(rock.includes("meta.property.block.jasset"), rock.join(" "));
});

test("a conflict marker is flagged and ends the block", async () => {
  const tokens = await tokenize(SAMPLE);
  assertScope(tokens, 12, "<<<<<<< ours", "invalid.illegal.conflict-marker.jasset");
  assertScope(tokens, 13, "Owner", "support.type.property-name.jasset");
});
