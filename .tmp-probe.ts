import { readFileSync, readdirSync } from 'node:fs';
import { readInvoice } from './simulator/reader/read-invoice';
import { classifyDocument } from './simulator/reader/classify';
async function main() {
  const dir = '/work/shared/invoices';
  const { extractText, getDocumentProxy } = await import('unpdf');
  for (const f of readdirSync(dir).filter((f) => /\.(pdf|txt)$/.test(f))) {
    let text: string;
    if (f.endsWith('.pdf')) {
      const pdf = await getDocumentProxy(new Uint8Array(readFileSync(`${dir}/${f}`)));
      text = (await extractText(pdf, { mergePages: true })).text;
    } else text = readFileSync(`${dir}/${f}`, 'utf8');
    const exp = JSON.parse(readFileSync(`${dir}/${f.replace(/\.(pdf|txt)$/, '.expected.json')}`, 'utf8'))[0];
    const r = readInvoice(text);
    const c = classifyDocument(text);
    console.log(`== ${f}  class=${c.documentType} ${c.confidence}  (${c.reason})`);
    for (const k of ['invoiceNumber','issuer','issueDate','dueDate','currency','totalAmount','subtotalAmount','taxAmount'] as const) {
      console.log(`  ${k.padEnd(15)} ${JSON.stringify(r.invoice[k]).padEnd(40)} ${r.confidence[k]}`);
    }
    console.log(`  lineItems ${r.confidence.lineItems}`, JSON.stringify(r.invoice.lineItems));
    console.log(`  expected: num=${exp.invoice_number} date=${exp.date} cur=${exp.currency} amount=${exp.amount} issuer=${exp.issuer}`);
  }
}
void main();
