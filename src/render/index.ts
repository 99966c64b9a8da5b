export { renderText, type TextOptions } from './plan-text.js';
export { COMMENT_MAX_CHARS, renderMarkdown, unsafeMarkdown, type MarkdownOptions } from './markdown.js';
export { renderJson } from './json.js';
export { applySummaryLine, renderApplyReportMarkdown, renderApplyReportText } from './apply-report.js';
export { escapeControls, escapeMarkdown } from '../escape.js';
export { showDomain } from './describe.js';
export { applyReportDocument, renderApplyReportJson, APPLY_REPORT_VERSION, type ApplyReportDocument } from './apply-json.js';
export { renderResultJson, resultDocument, RESULT_VERSION, type ResultDocument, type Refusal } from './result-json.js';
