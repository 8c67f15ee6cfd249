const fs = require('fs');
const path = require('path');
const { src, dest, parallel } = require('gulp');

// tsc never deletes: a compiled file whose source was moved or removed would stay in dist/ and be
// packed, and a stale dist/nodes/shared/limits.js would shadow dist/nodes/shared/limits/index.js for
// require('../limits'). Remove every compiled file under dist/nodes and dist/credentials without its source.
function pruneStale(done) {
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
        continue;
      }
      const compiled = /\.js(\.map)?$/.exec(entry.name);
      if (!compiled) continue;
      const source = path.join(path.relative('dist', dir), entry.name.slice(0, -compiled[0].length) + '.ts');
      if (!fs.existsSync(source)) fs.rmSync(full);
    }
  };
  walk(path.join('dist', 'nodes'));
  walk(path.join('dist', 'credentials'));
  done();
}

function copyIcons() {
  return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
    base: '.',
    encoding: false,
  }).pipe(dest('dist'));
}

// package.json "main" points at dist/index.js, so the packed package holds only dist/ (plus README, LICENSE, package.json).
function copyIndex() {
  return src('index.js').pipe(dest('dist'));
}

function copyCodex() {
  return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = parallel(pruneStale, copyIcons, copyCodex, copyIndex);
