// Lint of the shipped code: the recommended rules of n8n's verified community nodes, nothing
// switched off, and no inline disables honoured.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
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
];
