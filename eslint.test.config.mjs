// Lint of the code that is not shipped (tests, benchmarks, the development home dev/, scripts/):
// typescript-eslint's recommended rules.
// The shipped code (nodes/, credentials/) has its own config: eslint.config.mjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
	require: 'readonly',
	module: 'writable',
	exports: 'writable',
	process: 'readonly',
	Buffer: 'readonly',
	__dirname: 'readonly',
	__filename: 'readonly',
	console: 'readonly',
	setTimeout: 'readonly',
	clearTimeout: 'readonly',
	setInterval: 'readonly',
	clearInterval: 'readonly',
	setImmediate: 'readonly',
	URL: 'readonly',
	URLSearchParams: 'readonly',
	AbortController: 'readonly',
	performance: 'readonly',
};

export default tseslint.config(
	{ ignores: ['**/node_modules/**', '**/dist/**', 'test/e2e/.n8n/**'] },
	{
		files: ['test/**/*.ts', 'bench/**/*.ts', 'dev/**/*.ts', 'scripts/**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
			],
		},
	},
	{
		files: ['{test,bench,dev,scripts}/**/*.{js,cjs}'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: nodeGlobals },
	},
	{
		files: ['{test,bench,dev,scripts}/**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'module', globals: nodeGlobals },
	},
);
