/**
 * The seeded "Purchase Order" file type and its sample document: a schema with a field of every
 * kind the service describes, so that the editor's field mapper and typed values have each to
 * show. A text field, a date, a number, a boolean, a choice (enumValues), an object without
 * columns, a table, a hidden field, and a read-only field (our documented choice: `readOnly: true`
 * on a schema field definition; docs/dev/api-contract.md#read-only-fields). Its titles share
 * nothing with the Invoice and Receipt types, so no other document is read as a purchase order.
 */
import type { SchemaFieldDefinition } from './emulator/fill-fields';

export const PURCHASE_ORDER_FILE_NAME = 'purchase-order-PO-1001.txt';

export const PURCHASE_ORDER_SCHEMA_FIELDS: SchemaFieldDefinition[] = [
	{ id: 'f-po-no', title: 'PO Number', description: 'Number of the order', type: 'STRING', format: null, hidden: false },
	{ id: 'f-po-date', title: 'Order Date', description: 'Date the order was placed', type: 'DATE', format: 'YYYY-MM-DD', hidden: false },
	{ id: 'f-po-total', title: 'Order Total', description: 'Amount of the order', type: 'NUMBER', format: null, hidden: false },
	{ id: 'f-po-approved', title: 'Approved', description: 'Whether a buyer approved the order', type: 'BOOLEAN', format: null, hidden: false },
	{ id: 'f-po-priority', title: 'Priority', description: 'How urgent the order is', type: 'STRING', format: null, hidden: false, enumValues: ['Low', 'Normal', 'Urgent'] },
	{ id: 'f-po-ship-to', title: 'Ship To', description: 'Delivery address as an object', type: 'OBJECT', format: null, hidden: false },
	{
		id: 'f-po-lines',
		title: 'Order Lines',
		description: 'One row per ordered item',
		type: 'OBJECT',
		format: null,
		hidden: false,
		items: [
			{ id: 'f-po-line-item', title: 'Item', description: 'What is ordered', type: 'STRING', format: null, hidden: false },
			{ id: 'f-po-line-quantity', title: 'Quantity', description: 'Units', type: 'NUMBER', format: null, hidden: false },
			{ id: 'f-po-line-price', title: 'Price', description: 'Price per unit', type: 'NUMBER', format: null, hidden: false },
			{ id: 'f-po-line-needed', title: 'Needed By', description: 'Delivery date wanted', type: 'DATE', format: 'YYYY-MM-DD', hidden: false },
			{ id: 'f-po-line-taxable', title: 'Taxable', description: 'Whether tax applies', type: 'BOOLEAN', format: null, hidden: false },
		],
	},
	{ id: 'f-po-notes', title: 'Buyer Notes', description: 'Internal notes, not shown to suppliers', type: 'STRING', format: null, hidden: true },
	{ id: 'f-po-reference', title: 'Document Reference', description: 'Assigned by the service; read-only', type: 'STRING', format: null, hidden: false, readOnly: true },
];

export const PURCHASE_ORDER_LINES: readonly string[] = [
	'Globex Corporation',
	'PURCHASE ORDER',
	'Document Type: Purchase Order',
	'PO Number: PO-1001',
	'Order Date: 2024-06-03',
	'Order Total: 1,480.00',
	'Approved: yes',
	'Priority: urgent',
	'Ship To: {"street": "1 Main Street", "city": "Springfield"}',
	'Buyer Notes: call before delivery',
	'Document Reference: DOC-PO-1001',
	'',
	'Order Lines:',
	'Item, Quantity, Price, Needed By, Taxable',
	'Steel bolts, 400, 1.20, 2024-06-20, yes',
	'Copper wire, 10, 100.00, 2024-06-27, no',
	'',
];

/** What extraction makes of the purchase order (title -> value). */
export const PURCHASE_ORDER_EXPECTED: Readonly<Record<string, unknown>> = {
	'PO Number': 'PO-1001',
	'Order Date': '2024-06-03',
	'Order Total': 1480,
	Approved: true,
	Priority: 'Urgent',
	'Ship To': { street: '1 Main Street', city: 'Springfield' },
	'Order Lines': [
		{ Item: 'Steel bolts', Quantity: 400, Price: 1.2, 'Needed By': '2024-06-20', Taxable: true },
		{ Item: 'Copper wire', Quantity: 10, Price: 100, 'Needed By': '2024-06-27', Taxable: false },
	],
	'Buyer Notes': 'call before delivery',
	'Document Reference': 'DOC-PO-1001',
};

export function purchaseOrderText(): string {
	return PURCHASE_ORDER_LINES.join('\n') + '\n';
}
