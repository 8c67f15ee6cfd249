/** Comparing and ordering values: within a kind (numbers, strings, booleans, timestamps), nulls last. */
import type { FieldType, OrderPlan } from './types';

/** Orders two values: numbers, strings, booleans compare within their kind; null sorts last. */
export function compareForSort(left: unknown, right: unknown, type: FieldType): number {
	const leftMissing = left === null || left === undefined;
	const rightMissing = right === null || right === undefined;
	if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
	const comparison = compareValues(left, right, type);
	if (comparison !== undefined) return comparison;
	const rank = (value: unknown) => ['number', 'string', 'boolean'].indexOf(typeof value) + 1 || 4;
	return rank(left) - rank(right);
}

/** -1/0/1 for two comparable values, undefined when they are of different kinds. */
export function compareValues(left: unknown, right: unknown, type: FieldType): number | undefined {
	if (type === 'datetime' && typeof left === 'string' && typeof right === 'string') {
		const leftTime = Date.parse(left);
		const rightTime = Date.parse(right);
		if (Number.isNaN(leftTime) || Number.isNaN(rightTime)) return undefined;
		return Math.sign(leftTime - rightTime);
	}
	if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
	if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
	if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
	return undefined;
}

export function sameValue(left: unknown, right: unknown, type: FieldType): boolean {
	if ((left === null || left === undefined) && right === null) return true;
	return compareValues(left, right, type) === 0;
}

export function compareByPlans<T>(plans: OrderPlan[], read: (plan: OrderPlan, item: T) => unknown, left: T, right: T): number {
	for (const plan of plans) {
		const leftValue = read(plan, left);
		const rightValue = read(plan, right);
		const leftMissing = leftValue === null || leftValue === undefined;
		const rightMissing = rightValue === null || rightValue === undefined;
		// nulls last in both directions
		const comparison = leftMissing || rightMissing ? compareForSort(leftValue, rightValue, plan.type) : compareForSort(leftValue, rightValue, plan.type) * (plan.descending ? -1 : 1);
		if (comparison !== 0) return comparison;
	}
	return 0;
}

export function stableSort<T>(items: T[], compare: (left: T, right: T) => number): T[] {
	return items
		.map((item, index) => ({ item, index }))
		.sort((left, right) => compare(left.item, right.item) || left.index - right.index)
		.map(({ item }) => item);
}
