const { src, dest, parallel } = require('gulp');

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

exports.build = parallel(copyIcons, copyCodex, copyIndex);
