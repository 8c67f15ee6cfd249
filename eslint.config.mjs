// Lint of the shipped code: the recommended rules of n8n's verified community nodes, nothing
// switched off, and no inline disables honoured. Every regular expression in the shipped code is
// checked for super-linear backtracking (it may run over text from the service or the user).
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import regexpPlugin from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default [
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tseslint.parser },
	},
	{
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
	},
	{
		linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		plugins: { regexp: regexpPlugin },
		rules: {
			'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
			'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
			'regexp/no-misleading-capturing-group': 'error',
		},
	},
	{
		// No file in nodes/ or credentials/ over 300 lines (CONTRIBUTING.md): past it, an operation becomes a folder.
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
	},
];
