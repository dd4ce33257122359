import type { SampleDocument } from './sample-document';

/**
 * Slowlane's demo documents. Clean ones label every field once and add up, so the reader is sure of
 * each required field and they post; ambiguous ones miss or contradict exactly one thing a person
 * must look at; one is not an invoice at all. PDFs use pdfkit's standard fonts (WinAnsi: German,
 * Dutch, French and English text), so the Polish sample is the plain-text one.
 */
export const SAMPLE_CATALOG: readonly SampleDocument[] = [
  {
    format: 'pdf',
    fileName: 'rechnung-krause-eur.pdf',
    expectedOutcome: 'posted',
    description: 'Clean German invoice in EUR: labelled number, date, seller; 300,00 + 19 % MwSt = 357,00.',
    title: 'Rechnung RE-2024-0042',
    blocks: [
      { kind: 'heading', text: 'Werkzeughandel Krause GmbH' },
      { kind: 'lines', lines: ['Industriestraße 12, 70565 Stuttgart', 'USt-IdNr. DE123456789'] },
      { kind: 'heading', text: 'Rechnung' },
      {
        kind: 'fields',
        rows: [
          ['Rechnungssteller:', 'Werkzeughandel Krause GmbH'],
          ['Rechnungsnummer:', 'RE-2024-0042'],
          ['Rechnungsdatum:', '15.03.2024'],
          ['Fällig am:', '14.04.2024'],
          ['Kunde:', 'Schreinerei Vogel'],
        ],
      },
      {
        kind: 'table',
        columns: ['Beschreibung', 'Menge', 'Einzelpreis', 'Betrag'],
        rows: [
          ['Akkuschrauber 18 V', '2', '89,00', '178,00'],
          ['Bitsatz 32-teilig', '3', '24,50', '73,50'],
          ['Werkzeugkoffer', '1', '48,50', '48,50'],
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Zwischensumme:', '300,00 EUR'],
          ['MwSt 19%:', '57,00 EUR'],
          ['Gesamtbetrag:', '357,00 EUR'],
        ],
      },
      { kind: 'paragraph', text: 'Zahlbar innerhalb von 30 Tagen ohne Abzug. Vielen Dank für Ihren Auftrag.' },
    ],
  },
  {
    format: 'pdf',
    fileName: 'invoice-northwind-usd.pdf',
    expectedOutcome: 'posted',
    description: 'Clean US invoice in USD: month-name dates, labelled issuer, 2,000.00 + 8 % sales tax = 2,160.00.',
    title: 'Invoice NW-10017',
    blocks: [
      { kind: 'heading', text: 'Northwind Traders Inc.' },
      { kind: 'lines', lines: ['400 Pine Street, Seattle, WA 98101, United States'] },
      { kind: 'heading', text: 'INVOICE' },
      {
        kind: 'fields',
        rows: [
          ['Issued by:', 'Northwind Traders Inc.'],
          ['Invoice Number:', 'NW-10017'],
          ['Invoice Date:', 'March 3, 2024'],
          ['Due Date:', 'April 2, 2024'],
          ['Bill To:', 'Contoso Pharmacy'],
        ],
      },
      {
        kind: 'table',
        columns: ['Description', 'Qty', 'Unit Price', 'Amount'],
        rows: [
          ['Inventory consulting (hours)', '12', '150.00', '1,800.00'],
          ['Shelf labels (rolls)', '8', '25.00', '200.00'],
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Subtotal:', 'USD 2,000.00'],
          ['Sales tax (8%):', 'USD 160.00'],
          ['Amount Due:', 'USD 2,160.00'],
        ],
      },
      { kind: 'paragraph', text: 'Thank you for your business. Payment by bank transfer within 30 days.' },
    ],
  },
  {
    format: 'pdf',
    fileName: 'factuur-korenaar-eur.pdf',
    expectedOutcome: 'posted',
    description: 'Clean Dutch invoice in EUR: Dutch month names, 197,00 + 9 % BTW = 214,73.',
    title: 'Factuur 2024-118',
    blocks: [
      { kind: 'heading', text: 'Bakkerij De Gouden Korenaar B.V.' },
      { kind: 'lines', lines: ['Molenstraat 8, 3511 AB Utrecht', 'KvK 12345678  BTW NL001234567B01'] },
      { kind: 'heading', text: 'FACTUUR' },
      {
        kind: 'fields',
        rows: [
          ['Leverancier:', 'Bakkerij De Gouden Korenaar B.V.'],
          ['Factuurnummer:', '2024-118'],
          ['Factuurdatum:', '12 februari 2024'],
          ['Vervaldatum:', '13 maart 2024'],
          ['Klant:', 'Café Het Pleintje'],
        ],
      },
      {
        kind: 'table',
        columns: ['Omschrijving', 'Aantal', 'Prijs', 'Bedrag'],
        rows: [
          ['Volkorenbrood', '40', '2,75', '110,00'],
          ['Appeltaart', '6', '14,50', '87,00'],
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Subtotaal excl. BTW:', '€ 197,00'],
          ['BTW 9%:', '€ 17,73'],
          ['Totaal te betalen:', '€ 214,73'],
        ],
      },
    ],
  },
  {
    format: 'pdf',
    fileName: 'invoice-harbour-lights-gbp.pdf',
    expectedOutcome: 'posted',
    description: 'Clean UK tax invoice in GBP: day-first dates, 1,250.00 + 20 % VAT = 1,500.00.',
    title: 'Tax invoice HLS/2024/0315',
    blocks: [
      { kind: 'heading', text: 'Harbour Lights Studio Ltd' },
      { kind: 'lines', lines: ['3 Quay Street, Bristol BS1 4DB', 'VAT Reg. GB 123 4567 89'] },
      { kind: 'heading', text: 'TAX INVOICE' },
      {
        kind: 'fields',
        rows: [
          ['Seller:', 'Harbour Lights Studio Ltd'],
          ['Invoice No:', 'HLS/2024/0315'],
          ['Date of issue:', '28/05/2024'],
          ['Payment due:', '27/06/2024'],
        ],
      },
      {
        kind: 'table',
        columns: ['Description', 'Qty', 'Rate', 'Amount'],
        rows: [
          ['Product photography (day rate)', '2', '500.00', '1,000.00'],
          ['Image retouching', '10', '25.00', '250.00'],
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Net total:', '£ 1,250.00'],
          ['VAT 20%:', '£ 250.00'],
          ['Total due:', '£ 1,500.00'],
        ],
      },
    ],
  },
  {
    format: 'pdf',
    fileName: 'invoice-two-totals-chf.pdf',
    expectedOutcome: 'awaiting_review',
    description: 'Ambiguous: two different totals (CHF 1,180.00 in the summary, CHF 1,250.00 under the table).',
    title: 'Invoice AL-2024-031',
    blocks: [
      { kind: 'heading', text: 'Alpenglühen Events AG' },
      { kind: 'lines', lines: ['Seestrasse 21, 8002 Zürich'] },
      { kind: 'heading', text: 'INVOICE' },
      {
        kind: 'fields',
        rows: [
          ['Seller:', 'Alpenglühen Events AG'],
          ['Invoice No:', 'AL-2024-031'],
          ['Invoice Date:', '2024-04-22'],
          ['Total:', 'CHF 1,180.00'],
        ],
      },
      {
        kind: 'table',
        columns: ['Description', 'Qty', 'Price', 'Amount'],
        rows: [
          ['Venue hire, half day', '1', '900.00', '900.00'],
          ['Catering per guest', '14', '25.00', '350.00'],
        ],
      },
      { kind: 'fields', rows: [['Total:', 'CHF 1,250.00']] },
    ],
  },
  {
    format: 'pdf',
    fileName: 'facture-sans-date-eur.pdf',
    expectedOutcome: 'awaiting_review',
    description: 'Ambiguous: French invoice without a readable date ("Date : voir bon de livraison").',
    title: 'Facture F-2024-077',
    blocks: [
      { kind: 'heading', text: 'Atelier Lumière SARL' },
      { kind: 'lines', lines: ['14 rue des Tanneurs, 69002 Lyon'] },
      { kind: 'heading', text: 'FACTURE' },
      {
        kind: 'fields',
        rows: [
          ['Émetteur :', 'Atelier Lumière SARL'],
          ['Facture n° :', 'F-2024-077'],
          ['Date :', 'voir bon de livraison'],
          ['Client :', 'Librairie du Parc'],
        ],
      },
      {
        kind: 'table',
        columns: ['Désignation', 'Quantité', 'Prix unitaire', 'Montant'],
        rows: [['Suspension en laiton', '4', '100,00', '400,00']],
      },
      {
        kind: 'fields',
        rows: [
          ['Total HT :', '400,00 €'],
          ['TVA 20 % :', '80,00 €'],
          ['Total TTC :', '480,00 €'],
        ],
      },
    ],
  },
  {
    format: 'pdf',
    fileName: 'invoice-unlabelled-number-eur.pdf',
    expectedOutcome: 'awaiting_review',
    description: 'Ambiguous: the invoice number stands alone under the letterhead, with no label.',
    title: 'Invoice',
    blocks: [
      { kind: 'heading', text: 'Corrib Web Services Ltd' },
      { kind: 'lines', lines: ['Eyre Square 5, Galway H91, Ireland', '2024/118'] },
      { kind: 'heading', text: 'INVOICE' },
      {
        kind: 'fields',
        rows: [
          ['Seller:', 'Corrib Web Services Ltd'],
          ['Invoice Date:', '2024-07-01'],
          ['Customer:', 'Claddagh Crafts'],
        ],
      },
      {
        kind: 'table',
        columns: ['Description', 'Qty', 'Price', 'Amount'],
        rows: [['Website hosting, 12 months', '12', '20.00', '240.00']],
      },
      {
        kind: 'fields',
        rows: [
          ['Subtotal:', 'EUR 240.00'],
          ['VAT 23%:', 'EUR 55.20'],
          ['Amount Due:', 'EUR 295.20'],
        ],
      },
    ],
  },
  {
    format: 'txt',
    fileName: 'faktura-wisla-pln.txt',
    expectedOutcome: 'posted',
    description: 'Clean Polish plain-text invoice in PLN: 390,00 + 23 % VAT = 479,70.',
    text: [
      'FAKTURA VAT',
      'Faktura nr: FV/2024/06/031',
      'Data wystawienia: 2024-06-14',
      'Termin płatności: 2024-06-28',
      'Sprzedawca: Drukarnia Wisła sp. z o.o.',
      'Nabywca: Kwiaciarnia Różana',
      '',
      'Lp  Nazwa towaru              Ilość   Cena netto   Wartość netto',
      '1   Ulotki A5 (1000 szt.)     2       150,00       300,00',
      '2   Wizytówki (500 szt.)      1       90,00        90,00',
      '',
      'Razem netto: 390,00 PLN',
      'Kwota VAT 23%: 89,70 PLN',
      'Należność ogółem: 479,70 PLN',
      '',
    ].join('\n'),
  },
  {
    format: 'pdf',
    fileName: 'letter-workshop-visit.pdf',
    expectedOutcome: 'rejected',
    description: 'Not an invoice: a thank-you letter that only mentions that an invoice will follow.',
    title: 'Letter',
    blocks: [
      { kind: 'heading', text: 'Werkzeughandel Krause GmbH' },
      { kind: 'lines', lines: ['Industriestraße 12, 70565 Stuttgart'] },
      { kind: 'gap' },
      { kind: 'paragraph', text: 'Dear Ms. Vogel,' },
      {
        kind: 'paragraph',
        text:
          'thank you for visiting our workshop last week. We enjoyed showing you the new cordless tools and ' +
          'hope the demonstration was useful for your team. As agreed, we will send the invoice for the ' +
          'ordered items separately once they have been delivered.',
      },
      { kind: 'paragraph', text: 'We look forward to working with you.' },
      { kind: 'paragraph', text: 'Kind regards,\nAnna Krause' },
    ],
  },
  {
    format: 'png',
    fileName: 'scan-without-text.png',
    expectedOutcome: 'awaiting_review',
    description: 'A scanned page (PNG, no text layer): the model reads it as an image, is unsure, and a person reviews it.',
    width: 850,
    height: 1100,
  },
];
