import { createHash } from 'crypto';

import { REVIEW_LIMITS } from '../../../shared/limits';
import type { FieldKind } from '../../../shared/schema';

/**
 * File > Review Values' pages, as pure functions of what they show (docs/dev/review-values.md).
 * Every piece of text that the service sent (values, field titles, file names, preview links) or
 * a person typed is escaped for the place it lands: HTML text and attribute values by `html`,
 * the preview link by `url` (an http(s) URL or nothing) then `html`, the page's data by `json`
 * (inside a `<script type="application/json">` block, where `<`, `>`, `&` and the line
 * separators are written as \u escapes). The page's one script and its style are constants: the
 * Content-Security-Policy allows exactly them (by hash), no other script, no inline handler.
 */

/** One editable or read-only field of a file, as the page shows it. */
export interface PageField {
	name: string;
	kind: FieldKind;
	readOnly: boolean;
	/** A choice field's allowed values (empty: free text). */
	choices: string[];
	/** Scalars: the value as text ('' for none). */
	text: string;
	/** Tables: column names and kinds, then the rows' cells as text. */
	columns: Array<{ name: string; kind: FieldKind; choices: string[] }>;
	rows: string[][];
}

export interface PageFile {
	fileId: string;
	fileName: string;
	/** A fresh presigned preview link, shown as an image or in a frame; absent when there is none. */
	preview?: { url: string; image: boolean };
	fields: PageField[];
	/** Why the file cannot be reviewed on this page (its values could not be read): shown, not editable. */
	problem?: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text for HTML text or a double-quoted attribute value. */
export function html(text: string): string {
	return text.replace(/[&<>"'`]/g, (character) => HTML_ESCAPES[character]);
}

/** A URL for an attribute: only http(s), re-serialised by the URL parser; '' for anything else. */
export function safeUrl(text: string): string {
	try {
		const url = new URL(text);
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
	} catch {
		return '';
	}
}

/** Data for a `<script type="application/json">` block: nothing in it can end the block or start markup. */
export function json(value: unknown): string {
	return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The page's script: reads the inputs (never the data as code) and sends the changes as one JSON field. */
const SCRIPT = `(function(){var data=JSON.parse(document.getElementById('dex-data').textContent);
var form=document.getElementById('dex-form');
document.querySelectorAll('button[data-add]').forEach(function(b){b.addEventListener('click',function(){
var t=document.getElementById(b.getAttribute('data-add'));document.getElementById(b.getAttribute('data-body')).appendChild(t.content.cloneNode(true));});});
function text(el){if(el.type==='checkbox')return el.checked?'true':'false';return el.value;}
function shown(el){if(el.tagName==='SELECT'){for(var i=0;i<el.options.length;i++){if(el.options[i].defaultSelected)return el.options[i].value;}return el.options.length?el.options[0].value:'';}return el.defaultValue;}
form.addEventListener('submit',function(e){var out={files:[]};
data.files.forEach(function(file,i){var sec=document.getElementById('dex-file-'+i);if(!sec)return;
var d=sec.querySelector('input[data-decision]:checked');var note=sec.querySelector('textarea[data-note]');
var entry={fileId:file.fileId,decision:d?d.value:'',note:note?note.value:'',changes:[]};
file.fields.forEach(function(field,j){var el=sec.querySelector('[data-field="'+j+'"]');if(!el)return;
if(field.kind==='table'){var rows=[],changed=false;el.querySelectorAll('tr[data-row]').forEach(function(tr){
var gone=tr.querySelector('input[data-remove]');if(gone&&gone.checked){changed=true;return;}
if(tr.hasAttribute('data-new'))changed=true;var cells=[];tr.querySelectorAll('[data-cell]').forEach(function(c){if(text(c)!==shown(c))changed=true;cells.push(text(c));});rows.push(cells);});
if(changed)entry.changes.push({field:field.name,kind:field.kind,columns:field.columns,rows:rows});}
else if(text(el)!==shown(el))entry.changes.push({field:field.name,kind:field.kind,value:text(el)});});
out.files.push(entry);});
document.getElementById('dex-payload').value=JSON.stringify(out);
if(!window.fetch||!window.DOMParser)return;e.preventDefault();var button=form.querySelector('button[type="submit"]');button.disabled=true;
fetch(location.href,{method:'POST',body:new URLSearchParams(new FormData(form)),credentials:'same-origin',cache:'no-store'}).then(function(r){
var isHtml=(r.headers.get('content-type')||'').indexOf('text/html')===0;return r.text().then(function(t){
var main=isHtml?new DOMParser().parseFromString(t,'text/html').querySelector('main'):null;
if(main){replace(main.ownerDocument.title,Array.prototype.slice.call(main.childNodes));return;}
if(r.status===404||r.status===409||r.status===410){replace(data.gone.title,[data.gone.title,data.gone.message]);return;}
unsent();});}).catch(unsent);
function unsent(){button.disabled=false;var note=document.getElementById('dex-status');note.textContent=data.unsent;note.hidden=false;note.scrollIntoView();}});
function replace(title,parts){document.title=title;var main=document.querySelector('main');while(main.firstChild)main.removeChild(main.firstChild);
parts.forEach(function(part,i){if(typeof part!=='string'){main.appendChild(document.adoptNode(part));return;}var el=document.createElement(i?'p':'h1');el.textContent=part;main.appendChild(el);});
window.scrollTo(0,0);}})();`;

const STYLE = `body{font:16px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#f6f6f8}
main{max-width:1400px;margin:auto;padding:12px}h1{font-size:1.3em}section.file{background:#fff;border:1px solid #ddd;border-radius:8px;margin:12px 0;padding:12px}
.cols{display:flex;flex-wrap:wrap;gap:16px}.doc{flex:1 1 420px;min-height:60vh}.doc iframe,.doc img{width:100%;height:75vh;border:1px solid #ccc;object-fit:contain}
.fields{flex:1 1 380px}.doc,.fields{min-width:0}h2{overflow-wrap:anywhere}label{display:block;font-weight:600;margin-top:10px}.kind{font-weight:400;color:#777;font-size:.85em}
input,select,textarea{font:inherit;font-weight:400;width:100%;box-sizing:border-box;padding:6px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:2px}
.ro{padding:6px;background:#f0f0f0;white-space:pre-wrap;word-break:break-word}.decision{display:flex;gap:12px;margin-top:14px}.decision label{font-weight:600}
.decision input{width:auto}button{font:inherit;padding:10px 18px;margin-top:12px}.problem{color:#a00}.wrap{overflow-x:auto}`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const SCRIPT_HASH = hashOf(SCRIPT);
const STYLE_HASH = hashOf(STYLE);

/** The answer's headers: no caching (the preview link expires), no referrer (the URL holds the secret), the CSP. */
export function pageHeaders(previewOrigins: string[]): Record<string, string> {
	const origins = previewOrigins.filter((origin) => /^https?:\/\/[A-Za-z0-9.\-:[\]]+$/.test(origin));
	const frames = origins.length ? origins.join(' ') : "'none'";
	return {
		'Content-Type': 'text/html; charset=utf-8',
		'Cache-Control': 'no-store',
		'Referrer-Policy': 'no-referrer',
		'X-Content-Type-Options': 'nosniff',
		'X-Frame-Options': 'DENY',
		'Content-Security-Policy': [
			"default-src 'none'",
			`script-src ${SCRIPT_HASH}`,
			`style-src ${STYLE_HASH}`,
			`img-src ${frames}`,
			`frame-src ${frames}`,
			// The script sends the review to this same URL (and shows what n8n answers).
			"connect-src 'self'",
			"form-action 'self'",
			"base-uri 'none'",
			"frame-ancestors 'none'",
		].join('; '),
	};
}

function shell(title: string, body: string, script = false): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${html(title)}</title><style>${STYLE}</style></head><body><main>${body}</main>${script ? `<script>${SCRIPT}</script>` : ''}</body></html>`;
}

/** A page with a message only: done, refused, expired. */
export function messagePage(title: string, message: string): string {
	return shell(title, `<h1>${html(title)}</h1><p>${html(message)}</p>`);
}

function options(choices: string[], selected: string): string {
	const listed = choices.includes(selected) || selected === '' ? '' : `<option selected value="${html(selected)}">${html(selected)} (not an allowed value)</option>`;
	return `<option value=""${selected === '' ? ' selected' : ''}></option>${listed}${choices.map((choice) => `<option value="${html(choice)}"${choice === selected ? ' selected' : ''}>${html(choice)}</option>`).join('')}`;
}

/** Whether `text` is a real YYYY-MM-DD date (what a date input keeps). */
function isCalendarDate(text: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
	const date = new Date(`${text}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** One input for a scalar (or a table cell): data-field / data-cell is set by the caller. */
function input(kind: FieldKind, choices: string[], text: string, mark: string, list?: string): string {
	if (kind === 'boolean') return `<select ${mark}>${options(['true', 'false'], text)}</select>`;
	if (choices.length && !list) return `<select ${mark}>${options(choices, text)}</select>`;
	// A line break cannot be kept in an <input>'s value: such text goes to a <textarea>, after the
	// one line break the HTML parser drops at its start (a value's own first line break stays).
	if (kind === 'object' || text.length > 200 || /[\n\r]/.test(text)) return `<textarea ${mark} rows="3">\n${html(text)}</textarea>`;
	// A date input shows (and sends) nothing for an invalid date: only a real date goes into one.
	const type = kind === 'date' && isCalendarDate(text) ? 'date' : 'text';
	const mode = kind === 'number' ? ' inputmode="decimal"' : '';
	return `<input type="${type}"${mode} ${mark} value="${html(text)}"${list ? ` list="${list}"` : ''}>`;
}

function tableField(field: PageField, at: string, fieldIndex: number): string {
	const lists = field.columns
		.map((column, c) => (column.choices.length ? `<datalist id="${at}-l${c}">${column.choices.map((choice) => `<option value="${html(choice)}">`).join('')}</datalist>` : ''))
		.join('');
	const row = (cells: string[], fresh: boolean) =>
		`<tr data-row${fresh ? ' data-new' : ''}>${field.columns
			.map((column, c) => `<td>${input(column.kind, column.choices, cells[c] ?? '', 'data-cell', column.choices.length ? `${at}-l${c}` : undefined)}</td>`)
			.join('')}<td><input type="checkbox" data-remove aria-label="Remove row"></td></tr>`;
	const head = `<tr>${field.columns.map((column) => `<th>${html(column.name)}</th>`).join('')}<th>Remove</th></tr>`;
	if (field.readOnly) {
		const cells = field.rows.map((cells) => `<tr>${cells.map((cell) => `<td>${html(cell)}</td>`).join('')}</tr>`).join('');
		return `<div class="wrap"><table>${head.replace('<th>Remove</th>', '')}${cells}</table></div>`;
	}
	return `${lists}<div class="wrap"><table data-field="${fieldIndex}"><thead>${head}</thead><tbody id="${at}-b">${field.rows
		.map((cells) => row(cells, false))
		.join('')}</tbody></table></div><template id="${at}-t">${row([], true)}</template><button type="button" data-add="${at}-t" data-body="${at}-b">Add row</button>`;
}

function fieldBlock(field: PageField, fileIndex: number, fieldIndex: number): string {
	const label = `<label>${html(field.name)} <span class="kind">${html(field.kind === 'string' && field.choices.length ? 'choice' : field.kind)}${field.readOnly ? ', read-only' : ''}</span></label>`;
	if (field.kind === 'table') return `${label}${tableField(field, `dex${fileIndex}-f${fieldIndex}`, fieldIndex)}`;
	if (field.readOnly) return `${label}<div class="ro">${html(field.text)}</div>`;
	return `${label}${input(field.kind, field.choices, field.text, `data-field="${fieldIndex}"`)}`;
}

function preview(file: PageFile): string {
	if (!file.preview) return '<p>No preview of this document is available just now.</p>';
	const url = safeUrl(file.preview.url);
	if (!url) return '<p>No preview of this document is available just now.</p>';
	return file.preview.image
		? `<img src="${html(url)}" alt="${html(file.fileName)}">`
		: `<iframe src="${html(url)}" title="${html(file.fileName)}"></iframe>`;
}

function fileSection(file: PageFile, index: number): string {
	const head = `<h2>${html(file.fileName || file.fileId)}</h2>`;
	const fields = file.problem
		? `<p class="problem">${html(file.problem)}</p>`
		: file.fields.map((field, fieldIndex) => fieldBlock(field, index, fieldIndex)).join('');
	const decision = `<div class="decision"><label><input type="radio" name="d${index}" value="approve" data-decision required> Approve</label><label><input type="radio" name="d${index}" value="reject" data-decision> Reject</label></div><label>Note <span class="kind">optional</span><textarea data-note rows="2" maxlength="${REVIEW_LIMITS.maxNoteChars}"></textarea></label>`;
	return `<section class="file" id="dex-file-${index}">${head}<div class="cols"><div class="doc">${preview(file)}</div><div class="fields">${fields}${file.fileId ? decision : ''}</div></div></section>`;
}

/**
 * What the page's script shows when n8n, not the node, answers the submit: n8n answers 409 (JSON)
 * for an execution that has resumed or ended (another tab, another person, or the Wait Limit got
 * there first) before the node sees the request; no answer at all leaves the form as it was.
 */
export const SUBMIT_MESSAGES = {
	gone: {
		title: 'Review no longer open',
		message: 'This review was sent already (from this page or another) or its time has passed, so n8n no longer takes it. Nothing was changed by this attempt.',
	},
	unsent: 'The review could not be sent just now (no answer). Everything you entered is still here: send it again in a moment.',
};

/** The review page of an execution's files. */
export function reviewPage(files: PageFile[]): string {
	const data = {
		files: files.map((file) => ({ fileId: file.fileId, fields: file.problem ? [] : file.fields.map((field) => ({ name: field.name, kind: field.kind, columns: field.columns.map((column) => column.name) })) })),
		...SUBMIT_MESSAGES,
	};
	const count = files.length === 1 ? 'one document' : `${files.length} documents`;
	const body = `<h1>Review ${count}</h1><p>Check the values beside each document, correct what is wrong, then approve or reject each one and send the review. It can be sent once.</p><form id="dex-form" method="post">${files
		.map(fileSection)
		.join('')}<input type="hidden" name="payload" id="dex-payload"><p class="problem" id="dex-status" role="status" hidden></p><button type="submit">Send review</button></form><script type="application/json" id="dex-data">${json(data)}</script>`;
	return shell('Review documents', body, true);
}
