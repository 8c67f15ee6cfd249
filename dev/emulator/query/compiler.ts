/** Reads a query configuration's parts and reports what is wrong with them (errors with JSON Pointers), building filters as it goes. */
import { sameValue, compareValues } from './compare';
import { ISO_DATE, type FieldDirectory } from './fields';
import { FILE_ATTRIBUTES, QUERY_OPERATORS, type FieldRef, type Operator, type Predicate, type QueryableDocument, type QueryError } from './types';

const MAX_GROUP_DEPTH = 10;
const HEX_ID = /^[0-9a-f]{24}$/i;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function jsonType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

export function pointerSegment(segment: string | number): string {
	return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export class QueryCompiler {
	readonly errors: QueryError[] = [];

	constructor(private readonly fields: FieldDirectory) {}

	error(code: string, detail: string, pointer: string): void {
		this.errors.push({ code, detail, pointer });
	}

	/** An optional array property; undefined when absent or not an array (the latter reported). */
	array(container: Record<string, unknown>, key: string, pointer: string): unknown[] | undefined {
		const value = container[key];
		if (value === undefined || value === null) return undefined;
		if (!Array.isArray(value)) {
			this.error('INVALID_TYPE', `${key} must be an array, got ${jsonType(value)}`, `${pointer}/${key}`);
			return undefined;
		}
		return value;
	}

	/** An object entry with only `allowed` keys; undefined (reported) otherwise. */
	entry(value: unknown, allowed: string[], what: string, pointer: string): Record<string, unknown> | undefined {
		if (!isRecord(value)) {
			this.error('INVALID_TYPE', `${what} must be an object, got ${jsonType(value)}`, pointer);
			return undefined;
		}
		for (const key of Object.keys(value)) {
			if (!allowed.includes(key)) {
				this.error('UNKNOWN_PROPERTY', `${what} has no property "${key}"; allowed: ${allowed.join(', ')}`, `${pointer}/${pointerSegment(key)}`);
			}
		}
		return value;
	}

	requiredString(container: Record<string, unknown>, key: string, pointer: string): string | undefined {
		const value = container[key];
		if (value === undefined || value === null) {
			this.error('REQUIRED', `${key} is required`, `${pointer}/${key}`);
			return undefined;
		}
		if (typeof value !== 'string' || value.trim() === '') {
			this.error('INVALID_TYPE', `${key} must be a non-empty string, got ${jsonType(value)}`, `${pointer}/${key}`);
			return undefined;
		}
		return value;
	}

	optionalString(container: Record<string, unknown>, key: string, pointer: string): string | undefined {
		if (container[key] === undefined || container[key] === null) return undefined;
		return this.requiredString(container, key, pointer);
	}

	field(name: string, pointer: string): FieldRef | undefined {
		const field = this.fields.resolve(name);
		if (!field) {
			this.error('UNKNOWN_FIELD', `"${name}" is neither a file attribute (${FILE_ATTRIBUTES.join(', ')}) nor an extracted field title`, pointer);
		}
		return field;
	}

	ids(config: Record<string, unknown>, key: string, what: string): Set<string> | undefined {
		const list = this.array(config, key, '/queryConfig');
		if (!list) return undefined;
		const ids = new Set<string>();
		list.forEach((id, index) => {
			if (typeof id !== 'string' || !HEX_ID.test(id)) {
				this.error('INVALID_VALUE', `${key} entries must be ${what} ids (24 hexadecimal characters)`, `/queryConfig/${key}/${index}`);
			} else {
				ids.add(id.toLowerCase());
			}
		});
		return list.length > 0 ? ids : undefined;
	}

	/** Checks `value` against the operator and field type; a predicate value test, or undefined. */
	filter(raw: unknown, pointer: string): Predicate | undefined {
		const filter = this.entry(raw, ['field', 'operator', 'value'], 'a filter', pointer);
		if (!filter) return undefined;
		const name = this.requiredString(filter, 'field', pointer);
		const operatorName = this.requiredString(filter, 'operator', pointer);
		const field = name === undefined ? undefined : this.field(name, `${pointer}/field`);
		let operator: Operator | undefined;
		if (operatorName !== undefined) {
			operator = QUERY_OPERATORS.find((candidate) => candidate === operatorName.toLowerCase());
			if (!operator) this.error('UNKNOWN_OPERATOR', `operator "${operatorName}" is not one of ${QUERY_OPERATORS.join(', ')}`, `${pointer}/operator`);
		}
		if (!('value' in filter)) this.error('REQUIRED', 'value is required (null is allowed with eq and ne)', `${pointer}/value`);
		if (!field || !operator || !('value' in filter)) return undefined;
		return this.predicate(field, operator, filter.value, pointer);
	}

	private predicate(field: FieldRef, operator: Operator, value: unknown, pointer: string): Predicate | undefined {
		const type = field.type;
		const valuePointer = `${pointer}/value`;
		const unsupported = () => {
			this.error('UNSUPPORTED_OPERATOR', `operator ${operator} does not apply to the ${type} field "${field.title}"`, `${pointer}/operator`);
			return undefined;
		};
		const read = (document: QueryableDocument) => this.fields.read(document, field);

		if (operator === 'in') {
			if (type === 'table' || type === 'object') return unsupported();
			if (!Array.isArray(value)) {
				this.error('INVALID_TYPE', `operator in needs an array value, got ${jsonType(value)}`, valuePointer);
				return undefined;
			}
			const valid = value.every((element, index) => this.operand(field, element, true, `${valuePointer}/${index}`));
			if (!valid) return undefined;
			return (document) => value.some((element) => sameValue(read(document), element, type));
		}
		if (operator === 'contains') {
			if (type !== 'string' && type !== 'unknown') return unsupported();
			if (typeof value !== 'string') {
				this.error('INVALID_TYPE', `operator contains needs a string value, got ${jsonType(value)}`, valuePointer);
				return undefined;
			}
			const needle = value.toLowerCase();
			return (document) => {
				const actual = read(document);
				return typeof actual === 'string' && actual.toLowerCase().includes(needle);
			};
		}
		if (operator === 'eq' || operator === 'ne') {
			if ((type === 'table' || type === 'object') && value !== null) {
				this.error('INVALID_VALUE', `the ${type} field "${field.title}" can only be compared with null`, valuePointer);
				return undefined;
			}
			if (!this.operand(field, value, true, valuePointer)) return undefined;
			const equal = (document: QueryableDocument) => {
				const actual = read(document);
				return value === null ? actual === null : sameValue(actual, value, type);
			};
			return operator === 'eq' ? equal : (document) => !equal(document);
		}
		if (type === 'boolean' || type === 'table' || type === 'object') return unsupported();
		if (value === null) {
			this.error('INVALID_TYPE', `operator ${operator} needs a value, got null`, valuePointer);
			return undefined;
		}
		if (!this.operand(field, value, false, valuePointer)) return undefined;
		const accepts: Record<string, (comparison: number) => boolean> = {
			gt: (comparison) => comparison > 0,
			gte: (comparison) => comparison >= 0,
			lt: (comparison) => comparison < 0,
			lte: (comparison) => comparison <= 0,
		};
		return (document) => {
			const comparison = compareValues(read(document), value, type);
			return comparison !== undefined && accepts[operator](comparison);
		};
	}

	/** Whether one comparison operand suits the field's type (reported when not). */
	private operand(field: FieldRef, value: unknown, nullAllowed: boolean, pointer: string): boolean {
		if (value === null) {
			if (nullAllowed) return true;
			this.error('INVALID_TYPE', 'null is not allowed here', pointer);
			return false;
		}
		const fail = (expected: string) => {
			this.error('INVALID_TYPE', `"${field.title}" is a ${field.type} field: expected ${expected}, got ${jsonType(value)} ${JSON.stringify(value)}`, pointer);
			return false;
		};
		switch (field.type) {
			case 'number':
				return typeof value === 'number' && Number.isFinite(value) ? true : fail('a number');
			case 'boolean':
				return typeof value === 'boolean' ? true : fail('true or false');
			case 'string':
				return typeof value === 'string' ? true : fail('a string');
			case 'date':
				return typeof value === 'string' && ISO_DATE.test(value) ? true : fail('a date YYYY-MM-DD');
			case 'datetime':
				return typeof value === 'string' && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value)) ? true : fail('an ISO 8601 timestamp');
			default:
				return ['string', 'number', 'boolean'].includes(typeof value) ? true : fail('a string, number or boolean');
		}
	}

	group(raw: unknown, pointer: string, depth: number): Predicate | undefined {
		const group = this.entry(raw, ['operator', 'filters', 'groups'], 'a filter group', pointer);
		if (!group) return undefined;
		if (depth > MAX_GROUP_DEPTH) {
			this.error('INVALID_VALUE', `filter groups nest at most ${MAX_GROUP_DEPTH} levels`, pointer);
			return undefined;
		}
		let combinator: 'AND' | 'OR' = 'AND';
		if (group.operator !== undefined) {
			if (typeof group.operator === 'string' && ['AND', 'OR'].includes(group.operator.toUpperCase())) {
				combinator = group.operator.toUpperCase() as 'AND' | 'OR';
			} else {
				this.error('UNKNOWN_OPERATOR', `a filter group's operator is AND or OR, got ${JSON.stringify(group.operator)}`, `${pointer}/operator`);
			}
		}
		const parts: Array<Predicate | undefined> = [
			...(this.array(group, 'filters', pointer) ?? []).map((filter, index) => this.filter(filter, `${pointer}/filters/${index}`)),
			...(this.array(group, 'groups', pointer) ?? []).map((child, index) => this.group(child, `${pointer}/groups/${index}`, depth + 1)),
		];
		if (parts.some((part) => part === undefined)) return undefined;
		const predicates = parts as Predicate[];
		if (predicates.length === 0) return () => true;
		return combinator === 'AND'
			? (document) => predicates.every((predicate) => predicate(document))
			: (document) => predicates.some((predicate) => predicate(document));
	}
}

export function integerOption(compiler: QueryCompiler, options: Record<string, unknown>, key: string, minimum: number): number | undefined {
	const value = options[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
		compiler.error('INVALID_VALUE', `${key} must be an integer of at least ${minimum}, got ${JSON.stringify(value)}`, `/options/${key}`);
		return undefined;
	}
	return value;
}
