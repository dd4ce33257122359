import { generateSamples } from './stack/samples/generate';
import { readDocumentText } from './stack/samples/read-document-text';
import { readInvoice } from './simulator/reader/read-invoice';
import { classifyDocument } from './simulator/reader/classify';
import { overallConfidence } from './common/invoice';
async function main() {
  const files = await generateSamples('/tmp/samples-a');
  for (const f of files) {
    const text = await readDocumentText(f.path);
    const c = classifyDocument(text);
    const r = readInvoice(text);
    console.log(`== ${f.fileName} expect=${f.expectedOutcome} class=${c.documentType} ${c.confidence} overall=${overallConfidence(r)}`);
    if (process.argv[2]) console.log(text);
    for (const k of ['invoiceNumber','issuer','issueDate','dueDate','currency','totalAmount','subtotalAmount','taxAmount'] as const) {
      console.log(`  ${k.padEnd(15)} ${JSON.stringify(r.invoice[k]).padEnd(40)} ${r.confidence[k]}`);
    }
    console.log(`  lineItems ${r.confidence.lineItems}`, JSON.stringify(r.invoice.lineItems));
  }
}
void main();
