declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export function analyzePackage(packageDir: string): Promise<{ passed: boolean; message?: string; details?: string }>;
}
