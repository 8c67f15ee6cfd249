/**
 * A file's fields (its file type's schema) as the node reads them, for the editor's field mapper,
 * Update Values' checks and the conversion of values to write; both nodes may use it.
 *
 *   fields.ts        the service's field definitions and value fields read as SchemaFields; the read-only choice
 *   mapperFields.ts  SchemaFields as n8n's resource mapper fields (types, labels, the field count bound)
 *   convert.ts       the one converter of a value to write, by the field's kind
 *   writeCheck.ts    what an item writes, checked against the file's fields before anything is written
 *   lookup.ts        a file's fields and a file type's fields, through the API layer, cached per node run
 */
export type { FieldKind, SchemaField } from './fields';
export { fieldKind, isReadOnlyField, readFields, withSchemaDetails } from './fields';
export { mapperFields, mapperType, sameValueType, savedFieldsById } from './mapperFields';
export type { Conversion } from './convert';
export { convertValue, isEmptyValue, isoDate } from './convert';
export type { WriteMode, WritePlan, WriteRequest } from './writeCheck';
export { planWrite } from './writeCheck';
export { fileFields, fileTypeFields } from './lookup';
