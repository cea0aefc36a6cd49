// Copy the pinned @msgpack/msgpack browser bundle (and its licence) into the
// page's folder, shutthebox/web/static/vendor/, so that the page and a wheel
// build need no npm. Run by `make web`.
"use strict";
const fs = require("fs");
const path = require("path");

const library = path.join(__dirname, "node_modules", "@msgpack", "msgpack");
const target = path.join(__dirname, "..", "shutthebox", "web", "static", "vendor");
const { version } = require(path.join(library, "package.json"));
const copies = [
  ["dist.umd/msgpack.min.js", "msgpack.min.js"],
  ["LICENSE", "msgpack.LICENSE.txt"],
];

fs.mkdirSync(target, { recursive: true });
for (const [from, to] of copies) {
  const bytes = fs.readFileSync(path.join(library, from));
  const out = path.join(target, to);
  const old = fs.existsSync(out) ? fs.readFileSync(out) : null;
  if (old && old.equals(bytes)) {
    console.log("unchanged " + path.relative(process.cwd(), out));
  } else {
    fs.writeFileSync(out, bytes);
    console.log("wrote     " + path.relative(process.cwd(), out));
  }
}
fs.writeFileSync(path.join(target, "VERSION"), "@msgpack/msgpack " + version + " dist.umd/msgpack.min.js\n");
