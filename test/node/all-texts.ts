/** Every string and key of a value, found without recursion (the value may be 20,000 deep or cyclic). */
export function allTexts(value: unknown): string[] {
	const texts: string[] = [];
	const seen = new Set<object>();
	const stack: unknown[] = [value];
	while (stack.length) {
		const current = stack.pop();
		if (typeof current === 'string') texts.push(current);
		else if (current && typeof current === 'object' && !seen.has(current)) {
			seen.add(current);
			for (const [key, entry] of Object.entries(current)) {
				texts.push(key);
				stack.push(entry);
			}
		}
	}
	return texts;
}
