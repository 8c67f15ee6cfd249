/** Small body and query validator: collects every violation, then throws one 422. */
import { isObjectId, isUuid } from './ids';
import { ApiError, FieldViolation, validationError } from './problem';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function pointerOf(path: string): string {
	return path.startsWith('/') ? path : `/${path}`;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Validates the members of one JSON object. Names are JSON pointers relative to the body. */
export class BodyValidator {
	readonly violations: FieldViolation[] = [];

	constructor(
		readonly body: JsonObject,
		private readonly basePointer = '',
	) {}

	static forBody(body: unknown): BodyValidator {
		if (!isPlainObject(body)) {
			throw new ApiError(400, 'The request body must be a JSON object.');
		}
		return new BodyValidator(body);
	}

	pointer(name: string): string {
		return `${this.basePointer}/${name}`;
	}

	add(code: string, name: string, detail: string): void {
		this.violations.push({ code, detail, pointer: this.pointer(name) });
	}

	private present(name: string, required: boolean): boolean {
		const value = this.body[name];
		if (value === undefined) {
			if (required) this.add('REQUIRED', name, `${name} is required.`);
			return false;
		}
		return true;
	}

	string(
		name: string,
		options: { required?: boolean; nonEmpty?: boolean; maxLength?: number; nullable?: boolean } = {},
	): string | undefined {
		if (!this.present(name, options.required ?? false)) return undefined;
		const value = this.body[name];
		if (value === null && options.nullable) return undefined;
		if (typeof value !== 'string') {
			this.add('INVALID_TYPE', name, `${name} must be a string.`);
			return undefined;
		}
		if ((options.nonEmpty ?? options.required) && value.trim() === '') {
			this.add(options.required ? 'REQUIRED' : 'INVALID_VALUE', name, `${name} must not be empty.`);
			return undefined;
		}
		if (options.maxLength !== undefined && value.length > options.maxLength) {
			this.add('TOO_LONG', name, `${name} must be at most ${options.maxLength} characters.`);
			return undefined;
		}
		return value;
	}

	boolean(name: string, options: { required?: boolean } = {}): boolean | undefined {
		if (!this.present(name, options.required ?? false)) return undefined;
		const value = this.body[name];
		if (typeof value !== 'boolean') {
			this.add('INVALID_TYPE', name, `${name} must be a boolean (true or false).`);
			return undefined;
		}
		return value;
	}

	number(
		name: string,
		options: { required?: boolean; min?: number; exclusiveMin?: number; max?: number; integer?: boolean } = {},
	): number | undefined {
		if (!this.present(name, options.required ?? false)) return undefined;
		const value = this.body[name];
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			this.add('INVALID_TYPE', name, `${name} must be a number.`);
			return undefined;
		}
		if (options.integer && !Number.isInteger(value)) {
			this.add('INVALID_VALUE', name, `${name} must be an integer.`);
			return undefined;
		}
		if (options.exclusiveMin !== undefined && value <= options.exclusiveMin) {
			this.add('OUT_OF_RANGE', name, `${name} must be greater than ${options.exclusiveMin}.`);
			return undefined;
		}
		if (options.min !== undefined && value < options.min) {
			this.add('OUT_OF_RANGE', name, `${name} must be at least ${options.min}.`);
			return undefined;
		}
		if (options.max !== undefined && value > options.max) {
			this.add('OUT_OF_RANGE', name, `${name} must be at most ${options.max}.`);
			return undefined;
		}
		return value;
	}

	enumValue<T extends string>(name: string, allowed: readonly T[], options: { required?: boolean } = {}): T | undefined {
		const value = this.string(name, { required: options.required });
		if (value === undefined) return undefined;
		if (!(allowed as readonly string[]).includes(value)) {
			this.add('INVALID_VALUE', name, `${name} must be one of ${allowed.join(', ')}.`);
			return undefined;
		}
		return value as T;
	}

	uuid(name: string, options: { required?: boolean } = {}): string | undefined {
		const value = this.string(name, { required: options.required });
		if (value === undefined) return undefined;
		if (!isUuid(value)) {
			this.add('INVALID_FORMAT', name, `${name} must be a UUID; got "${truncate(value)}".`);
			return undefined;
		}
		return value;
	}

	objectId(name: string, options: { required?: boolean } = {}): string | undefined {
		const value = this.string(name, { required: options.required });
		if (value === undefined) return undefined;
		if (!isObjectId(value)) {
			this.add('INVALID_FORMAT', name, `${name} must be a 24-character hexadecimal id; got "${truncate(value)}".`);
			return undefined;
		}
		return value;
	}

	array(name: string, options: { required?: boolean; nonEmpty?: boolean; maxItems?: number } = {}): unknown[] | undefined {
		if (!this.present(name, options.required ?? false)) return undefined;
		const value = this.body[name];
		if (!Array.isArray(value)) {
			this.add('INVALID_TYPE', name, `${name} must be an array.`);
			return undefined;
		}
		if (options.nonEmpty && value.length === 0) {
			this.add(options.required ? 'REQUIRED' : 'INVALID_VALUE', name, `${name} must not be empty.`);
			return undefined;
		}
		if (options.maxItems !== undefined && value.length > options.maxItems) {
			this.add('TOO_MANY_ITEMS', name, `${name} must hold at most ${options.maxItems} items; got ${value.length}.`);
			return undefined;
		}
		return value;
	}

	object(name: string, options: { required?: boolean } = {}): JsonObject | undefined {
		if (!this.present(name, options.required ?? false)) return undefined;
		const value = this.body[name];
		if (!isPlainObject(value)) {
			this.add('INVALID_TYPE', name, `${name} must be an object.`);
			return undefined;
		}
		return value;
	}

	/** A child validator for a nested object; its violations land in this one. */
	nested(name: string, value: JsonObject): BodyValidator {
		const child = new BodyValidator(value, this.pointer(name));
		(child as { violations: FieldViolation[] }).violations = this.violations;
		return child;
	}

	/** Callback URLs must be HTTPS; plain HTTP is accepted for loopback hosts only. */
	callbackUrl(name: string): string | undefined {
		const value = this.string(name, { nonEmpty: true });
		if (value === undefined) return undefined;
		let url: URL;
		try {
			url = new URL(value);
		} catch {
			this.add('INVALID_FORMAT', name, `${name} must be a valid URL.`);
			return undefined;
		}
		if (url.protocol === 'https:') return value;
		if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return value;
		this.add('INVALID_FORMAT', name, `${name} must be an HTTPS URL.`);
		return undefined;
	}

	rejectUnknown(allowed: readonly string[]): void {
		for (const key of Object.keys(this.body)) {
			if (!allowed.includes(key)) {
				this.add('UNKNOWN_PROPERTY', key, `${key} is not a recognised property.`);
			}
		}
	}

	throwIfInvalid(): void {
		if (this.violations.length > 0) throw validationError(this.violations);
	}
}

export function truncate(value: string, max = 60): string {
	return value.length > max ? `${value.slice(0, max)}...` : value;
}

export type Query = Record<string, string | string[]>;

/** Validates query parameters; violations name the parameter. */
export class QueryValidator {
	readonly violations: FieldViolation[] = [];
	constructor(readonly query: Query) {}

	add(code: string, name: string, detail: string): void {
		this.violations.push({ code, detail, parameter: name });
	}

	raw(name: string): string | undefined {
		const value = this.query[name];
		if (value === undefined) return undefined;
		if (Array.isArray(value)) {
			this.add('INVALID_VALUE', name, `${name} must be given once.`);
			return undefined;
		}
		return value;
	}

	integer(name: string, options: { defaultValue: number; min: number; max?: number }): number {
		const value = this.raw(name);
		if (value === undefined) return options.defaultValue;
		if (!/^\d+$/.test(value)) {
			this.add('INVALID_TYPE', name, `${name} must be an integer.`);
			return options.defaultValue;
		}
		const parsed = Number(value);
		if (parsed < options.min || (options.max !== undefined && parsed > options.max)) {
			const range = options.max !== undefined ? `between ${options.min} and ${options.max}` : `at least ${options.min}`;
			this.add('OUT_OF_RANGE', name, `${name} must be ${range}.`);
			return options.defaultValue;
		}
		return parsed;
	}

	enumValue<T extends string>(name: string, allowed: readonly T[], defaultValue: T): T {
		const value = this.raw(name);
		if (value === undefined) return defaultValue;
		if (!(allowed as readonly string[]).includes(value)) {
			this.add('INVALID_VALUE', name, `${name} must be one of ${allowed.join(', ')}.`);
			return defaultValue;
		}
		return value as T;
	}

	timestamp(name: string): number | undefined {
		const value = this.raw(name);
		if (value === undefined) return undefined;
		const parsed = parseIsoTimestamp(value);
		if (parsed === undefined) {
			this.add('INVALID_FORMAT', name, `${name} must be an ISO 8601 timestamp.`);
		}
		return parsed;
	}

	boolean(name: string): boolean | undefined {
		const value = this.raw(name);
		if (value === undefined) return undefined;
		if (value !== 'true' && value !== 'false') {
			this.add('INVALID_TYPE', name, `${name} must be true or false.`);
			return undefined;
		}
		return value === 'true';
	}

	rejectUnknown(allowed: readonly string[]): void {
		for (const key of Object.keys(this.query)) {
			if (!allowed.includes(key)) this.add('UNKNOWN_PARAMETER', key, `${key} is not a recognised query parameter.`);
		}
	}

	throwIfInvalid(): void {
		if (this.violations.length > 0) throw validationError(this.violations);
	}
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function parseIsoTimestamp(value: string): number | undefined {
	if (!ISO_8601.test(value)) return undefined;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? undefined : parsed;
}
