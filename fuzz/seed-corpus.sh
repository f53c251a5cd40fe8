#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the repository's .jasset files (tests/fixtures, demo,
# tests/hostile) and the saved findings (tests/fuzz-regressions). Idempotent: a seed's
# file name is the hash of its bytes.
set -euo pipefail
cd "$(dirname "$0")/.."

files=$(for d in tests/fixtures demo tests/hostile; do if [ -d "$d" ]; then find "$d" -name "*.jasset"; fi; done | sort)

put() { # put TARGET < bytes
  local dir="fuzz/corpus/$1" tmp
  mkdir -p "$dir"
  tmp=$(mktemp)
  cat > "$tmp"
  mv "$tmp" "$dir/seed-$(sha1sum "$tmp" | cut -c1-16)" 2>/dev/null \
    || mv "$tmp" "$dir/seed-$(cksum < "$tmp" | cut -d' ' -f1)"
}

# Drops the Kind lines (`; Kind`, `; Kind: x`, `Kind: x` and the aliases) of an entity file.
strip_kind() {
  awk 'BEGIN { skip = 0 }
       { l = tolower($0) }
       skip && $0 !~ /^[ \t]*(#|\/\/|$)/ { skip = 0; next }
       skip { next }
       l ~ /^[ \t]*;[ \t]*(kind|class|entity_?type)[ \t]*$/ { skip = 1; next }
       l ~ /^[ \t]*(;[ \t]*)?(kind|class|entity_?type)[ \t]*:/ { next }
       { print }' "$1"
}

# The Template path an entity file names (empty when none).
template_of() {
  awk 'BEGIN { next_line = 0 }
       { l = tolower($0) }
       next_line && $0 !~ /^[ \t]*(#|\/\/|$)/ { gsub(/^[ \t]+|[ \t\r]+$/, ""); print; exit }
       l ~ /^[ \t]*;[ \t]*template[ \t]*$/ { next_line = 1; next }
       l ~ /^[ \t]*(;[ \t]*)?template[ \t]*:/ { sub(/^[^:]*:[ \t]*/, ""); gsub(/[ \t\r]+$/, ""); print; exit }' "$1"
}

# Drops the Template lines of an entity file.
strip_template() {
  awk 'BEGIN { skip = 0 }
       { l = tolower($0) }
       skip && $0 !~ /^[ \t]*(#|\/\/|$)/ { skip = 0; next }
       skip { next }
       l ~ /^[ \t]*;[ \t]*template[ \t]*$/ { skip = 1; next }
       l ~ /^[ \t]*(;[ \t]*)?template[ \t]*:/ { next }
       { print }' "$1"
}

for f in $files; do
  put tokenize < "$f"
  # Selector 4: the file as it is (it names its own Kind).
  { printf '\x04'; cat "$f"; } | put load_entity
  # Selectors 0-3: a stock kind's Kind line, then the file without its own.
  for s in 0 1 2 3; do
    { printf "\\x0$s"; strip_kind "$f"; } | put load_entity
  done
  { cat "$f"; } | put load_instance
  # An instance with the template it names (and that template's parent): the pieces
  # joined by NUL bytes, each without its own Template line.
  t=$(template_of "$f")
  if [ -n "$t" ] && [ -f "demo/$t" ]; then
    p=$(template_of "demo/$t")
    if [ -n "$p" ] && [ -f "demo/$p" ]; then
      { strip_template "demo/$p"; printf '\0'; strip_template "demo/$t"; printf '\0'; strip_template "$f"; } | put load_instance
    else
      { strip_template "demo/$t"; printf '\0'; strip_template "$f"; } | put load_instance
    fi
  fi
done

for target in tokenize load_entity load_instance; do
  if [ -d "tests/fuzz-regressions/$target" ]; then
    for f in "tests/fuzz-regressions/$target"/*; do
      [ -f "$f" ] && put "$target" < "$f"
    done
  fi
done
echo "corpus: $(for t in fuzz/corpus/*; do echo -n "$(basename "$t")=$(ls "$t" | wc -l) "; done)"
