#!/usr/bin/env node
/*
 * The qasm suite: our OpenQASM 2.0 circuits run on an independent simulator,
 * the npm package quantum-circuit (version pinned in package-lock.json
 * beside this file), and its outcome probabilities compared with those of
 * libqubo's own simulator, qubo_qaoa_probabilities(), to 1e-9.
 *
 *   node compare.js QASM_PROBS QUBO_CLI BUILD_ROOT PUZZLE...
 *
 * QASM_PROBS is probs.c (beside this file) built (a model, angles -> our circuit and
 * our probabilities), QUBO_CLI the qubo program (a puzzle's reduced model
 * and its circuit through `qubo export --qasm2`).
 *
 * Cases: (a) random models of 1 to 10 qubits, fields and couplings of both
 * signs with some zero fields, an offset, depth 1 to 3 with random angles of
 * both signs, some mixer angles near pi/2; (b) each PUZZLE reduced by the
 * library, its circuit written by the CLI with given angles.
 *
 * Where quantum-circuit is found: $QUBO_NODE_MODULES (a node_modules
 * folder), then Node's own search ($NODE_PATH, node_modules folders above
 * this file), then BUILD_ROOT/node_modules, the documented default
 * (`cp tests/qubo/qaoa/qasm/package*.json build/ && cd build && npm ci`).
 *
 * Exit status 0, 1 on a failure, 77 (skipped) when quantum-circuit cannot be
 * loaded, unless QUBO_REQUIRE_NODE=1, when that is a failure. The last line
 * is "N passed, N failed". QUBO_QASM_SEED changes the random models.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const TOL = 1e-9;
const [, , PROBS, QUBO, BUILD_ROOT, ...PUZZLES] = process.argv;
const REQUIRE = process.env.QUBO_REQUIRE_NODE === '1';

function skipOrFail(msg) {
	if (REQUIRE) {
		console.error(`qasm: ${msg}, and QUBO_REQUIRE_NODE=1: failing`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
	console.error(`qasm: ${msg}: skipped`);
	process.exit(77);
}

if (!PROBS || !QUBO || !BUILD_ROOT) {
	console.error('usage: node compare.js QASM_PROBS QUBO_CLI BUILD_ROOT PUZZLE...');
	process.exit(2);
}

/* A package that is there but does not load is a failure, not a skip. */
function loadQuantumCircuit() {
	const tried = [];
	const candidates = [];
	if (process.env.QUBO_NODE_MODULES)
		candidates.push(path.resolve(process.env.QUBO_NODE_MODULES, 'quantum-circuit'));
	candidates.push('quantum-circuit');
	candidates.push(path.resolve(BUILD_ROOT, 'node_modules', 'quantum-circuit'));
	for (const c of candidates) {
		let where;
		try {
			where = require.resolve(c);
		} catch (e) {
			if (e.code !== 'MODULE_NOT_FOUND')
				throw e;
			tried.push(c);
			continue;
		}
		return { QuantumCircuit: require(where), where };
	}
	skipOrFail(`the npm package quantum-circuit is not installed (tried ${tried.join(', ')}; ` +
		'install it with `cp tests/qubo/qaoa/qasm/package*.json build/ && ' +
		'(cd build && npm ci --no-audit --no-fund)` or set QUBO_NODE_MODULES)');
	return null;
}

const { QuantumCircuit, where } = loadQuantumCircuit();
const qcVersion = (() => {
	try {
		let dir = path.dirname(where);
		for (;;) {
			const pj = path.join(dir, 'package.json');
			if (fs.existsSync(pj)) {
				const j = JSON.parse(fs.readFileSync(pj, 'utf8'));
				if (j.name === 'quantum-circuit')
					return j.version;
			}
			const up = path.dirname(dir);
			if (up === dir)
				return '?';
			dir = up;
		}
	} catch (e) {
		return '?';
	}
})();

let passed = 0, failed = 0, worst = 0;

function check(ok, what) {
	if (ok) {
		passed++;
	} else {
		failed++;
		console.error(`FAIL: ${what}`);
	}
}

/*
 * Runs an OpenQASM 2.0 program on quantum-circuit and returns the 2^n
 * outcome probabilities, index x with bit i = qubit i. The program's
 * measurements are its last statements, so they leave the state as it is
 * (quantum-circuit collapses a qubit only when a gate follows its
 * measurement). The state is read from circuit.state, its map from basis
 * index to amplitude (absent entries are zero); its bit order is checked
 * once by bitOrderProbe().
 */
function simulate(qasm) {
	const circuit = new QuantumCircuit();
	let errors = null;
	circuit.importQASM(qasm, (e) => { errors = e; });
	if (errors && errors.length)
		throw new Error(`quantum-circuit could not import the program: ${JSON.stringify(errors)}`);
	circuit.run();
	const n = circuit.numQubits;
	const probs = new Float64Array(2 ** n);
	for (const key of Object.keys(circuit.state)) {
		const a = circuit.state[key];
		probs[parseInt(key, 10)] = a.re * a.re + a.im * a.im;
	}
	return { n, probs, circuit };
}

/* quantum-circuit's basis index has qubit i as bit i, as ours does. */
function bitOrderProbe() {
	const r = simulate('OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\ncreg c[3];\n' +
		'x q[0];\nh q[2];\nmeasure q[0] -> c[0];\nmeasure q[1] -> c[1];\nmeasure q[2] -> c[2];\n');
	const ok = r.n === 3 && Math.abs(r.probs[1] - 0.5) < 1e-12 &&
		Math.abs(r.probs[5] - 0.5) < 1e-12;
	check(ok, `bit order: x q[0]; h q[2] should give indices 1 and 5, got ${Array.from(r.probs)}`);
	if (!ok) {
		console.log(`${passed} passed, ${failed} failed`);
		process.exit(1);
	}
}

/* Ours: the circuit and the probabilities from probs.c. */
function ours(modelPath, angles, qasmPath) {
	const out = execFileSync(PROBS, [modelPath, angles.join(','), qasmPath],
		{ encoding: 'utf8', maxBuffer: 1 << 26 });
	const probs = out.trim().split('\n').map(Number);
	return { probs, qasm: fs.readFileSync(qasmPath, 'utf8') };
}

function compare(name, qasm, want) {
	let r;
	try {
		r = simulate(qasm);
	} catch (e) {
		check(false, `${name}: ${e.message}`);
		return;
	}
	if (r.probs.length !== want.length) {
		check(false, `${name}: ${r.probs.length} outcomes from quantum-circuit, ${want.length} from libqubo`);
		return;
	}
	let diff = 0, at = 0, total = 0;
	for (let x = 0; x < want.length; x++) {
		const d = Math.abs(r.probs[x] - want[x]);
		total += r.probs[x];
		if (d > diff) {
			diff = d;
			at = x;
		}
	}
	worst = Math.max(worst, diff);
	check(diff <= TOL && Math.abs(total - 1) < 1e-9,
		`${name}: probabilities differ by ${diff} at outcome ${at} ` +
		`(${r.probs[at]} vs ${want[at]}); total ${total}`);
	/* and quantum-circuit's documented per-qubit marginals (rounded to 14
	 * decimals by the package) */
	const marg = r.circuit.probabilities();
	for (let i = 0; i < r.n; i++) {
		let m = 0;
		for (let x = 0; x < want.length; x++)
			if ((x >> i) & 1)
				m += want[x];
		if (Math.abs(marg[i] - m) > TOL) {
			check(false, `${name}: P(x_${i} = 1) is ${marg[i]} there, ${m} here`);
			return;
		}
	}
}

/* A seeded generator (mulberry32), so that a failure can be reproduced. */
function rng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6D2B79F5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const seed = process.env.QUBO_QASM_SEED ? Number(process.env.QUBO_QASM_SEED) : 20261124;
const rand = rng(seed);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qubo-qasm-'));
const t0 = Date.now();

function weight() {
	/* both signs, some with many digits, some small integers */
	return rand() < 0.5 ? (rand() - 0.5) * 6 : Math.round((rand() - 0.5) * 8);
}

function angle(mixer) {
	if (mixer && rand() < 0.2)
		return Math.PI / 2 - rand() * 1e-3; /* near pi/2 */
	return (rand() - 0.5) * 2 * Math.PI; /* both signs */
}

try {
	bitOrderProbe();

	/* (a) random models: five per size from 1 to 10 qubits */
	for (let n = 1; n <= 10; n++) {
		for (let rep = 0; rep < 5; rep++) {
			const lin = [], quad = [];
			for (let i = 0; i < n; i++)
				lin.push(rand() < 0.25 ? 0 : weight());
			const density = n > 8 ? 0.35 : 0.6;
			for (let i = 0; i < n; i++)
				for (let j = i + 1; j < n; j++)
					if (rand() < density)
						quad.push([i, j, weight() || 1]);
			const offset = weight();
			const nz = lin.filter((w) => w !== 0).length;
			let text = `c random model, seed ${seed}\nc offset ${offset}\n`;
			text += `p qubo 0 ${n} ${nz} ${quad.length}\n`;
			lin.forEach((w, i) => { if (w !== 0) text += `${i} ${i} ${w}\n`; });
			quad.forEach(([i, j, w]) => { text += `${i} ${j} ${w}\n`; });
			const model = path.join(tmp, `random-${n}-${rep}.qubo`);
			fs.writeFileSync(model, text);
			const p = 1 + Math.floor(rand() * 3);
			const gammas = [], betas = [];
			for (let k = 0; k < p; k++) {
				gammas.push(angle(false));
				betas.push(angle(true));
			}
			const name = `random n=${n} p=${p} #${rep} (seed ${seed})`;
			const mine = ours(model, gammas.concat(betas), path.join(tmp, `random-${n}-${rep}.qasm`));
			compare(name, mine.qasm, mine.probs);
		}
	}

	/* (b) puzzles: reduced by the library, the circuit from the CLI */
	for (const puzzle of PUZZLES) {
		const model = path.join(tmp, `${path.basename(puzzle)}.qubo`);
		execFileSync(QUBO, ['export', puzzle, '-o', model]);
		const angles = [0.35, -0.8, 1.1, 0.6];
		const cli = execFileSync(QUBO, ['export', '--qasm2', '--angles', angles.join(','), puzzle],
			{ encoding: 'utf8' });
		const mine = ours(model, angles, path.join(tmp, `${path.basename(puzzle)}.qasm`));
		check(cli === mine.qasm,
			`${puzzle}: the CLI's circuit differs from qubo_qaoa_qasm() on its exported model`);
		compare(`${path.basename(puzzle)} (p=2)`, cli, mine.probs);
	}
} catch (e) {
	check(false, `unexpected error: ${e.stack || e}`);
} finally {
	fs.rmSync(tmp, { recursive: true, force: true });
}

console.error(`qasm: quantum-circuit ${qcVersion} (${where}); largest probability difference ` +
	`${worst.toExponential(2)} (tolerance ${TOL}); ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
