import type { Unknown } from '../../common/site-values';
import type {
  LineItemType,
  OrderView,
  PaymentState,
  PaymentType,
  RefundingState,
} from '../../common/view-models';

/**
 * The words of the files the app writes (CSV headers, the receipt, calendar events), in the two
 * languages of the app. They live in the core because the core writes the files; the wording
 * matches the screens' (renderer/src/i18n). `satisfies Strings` on both tables makes a missing key
 * a type error.
 */
export type ExportLanguage = 'en' | 'zh-TW';

interface Strings {
  readonly paymentState: Readonly<Record<PaymentState | Unknown, string>>;
  readonly paymentType: Readonly<Record<PaymentType | Unknown, string>>;
  readonly refundState: Readonly<Record<RefundingState | Unknown, string>>;
  readonly itemType: Readonly<Record<LineItemType | Unknown, string>>;
  readonly orderState: Readonly<Record<OrderView['summaryState'], string>>;
  readonly invoiceKind: Readonly<Record<'personal' | 'company' | 'donation' | Unknown, string>>;
  readonly adjustmentKind: Readonly<Record<'coupon' | 'promotion' | Unknown, string>>;
  /** CSV column headers, in column order (csv.ts). */
  readonly csv: {
    readonly tradeNo: string;
    readonly orderDate: string;
    readonly orderState: string;
    readonly items: string;
    readonly paymentId: string;
    readonly paymentMethod: string;
    readonly paymentState: string;
    readonly createdAt: string;
    readonly paidAt: string;
    readonly currency: string;
    readonly amount: string;
    readonly adjustments: string;
    readonly refundState: string;
    readonly refundedAmount: string;
    readonly invoiceNumber: string;
    readonly invoiceKind: string;
    readonly invoiceTitle: string;
    readonly taxId: string;
    /** Appended to date headers: the time zone the dates are written in. */
    readonly timeZone: (zone: string) => string;
  };
  readonly receipt: {
    readonly title: string;
    readonly orderNo: string;
    readonly orderDate: string;
    readonly state: string;
    readonly site: string;
    readonly payment: (n: number, of: number) => string;
    readonly method: string;
    readonly amount: string;
    readonly createdAt: string;
    readonly paidAt: string;
    readonly item: string;
    readonly type: string;
    readonly quantity: string;
    readonly original: string;
    readonly discount: string;
    readonly final: string;
    readonly adjustments: string;
    readonly installmentLabel: string;
    readonly installment: (periods: number, amount: string) => string;
    readonly invoice: string;
    readonly invoiceNumber: string;
    readonly invoiceKind: string;
    readonly invoiceTitle: string;
    readonly taxId: string;
    readonly issuedAt: string;
    readonly voidedAt: string;
    readonly refund: string;
    readonly refundState: string;
    readonly refundedAmount: string;
    readonly refundRequestedAt: string;
    readonly refundedAt: string;
    readonly paymentCode: string;
    readonly bank: string;
    readonly payBy: string;
    readonly total: string;
    readonly paid: string;
    readonly refunded: string;
    readonly footer: (when: string) => string;
    readonly notInvoice: string;
  };
  readonly calendar: {
    readonly paymentSummary: (amount: string, title: string) => string;
    readonly paymentDescription: (lines: {
      method: string;
      code: string;
      bank: string | null;
      amount: string;
      tradeNo: string;
      site: string;
    }) => string;
    readonly paymentAlarm: string;
    readonly accessSummary: (title: string) => string;
    /**
     * `lectures` left and their `minutes` (at least 1 when any lecture is left): "Left: 3 lectures,
     * 57 min".
     */
    readonly accessDescription: (lines: {
      title: string;
      site: string;
      progress: number;
      lectures: number;
      minutes: number;
    }) => string;
    readonly accessAlarm: string;
    readonly eventDescription: (lines: {
      where: string;
      ticket: string;
      site: string;
      join: string | null;
    }) => string;
    readonly eventOnline: string;
    readonly eventAlarm: string;
  };
}

/** Minutes as "57 min", "2 h", "1 h 5 min" (the units given in the file's language). */
function watchTime(minutes: number, hour: string, minute: string): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} ${minute}` : m === 0 ? `${h} ${hour}` : `${h} ${hour} ${m} ${minute}`;
}

const en = {
  paymentState: {
    not_paid: 'Not paid yet',
    paid: 'Paid',
    expired: 'Expired',
    failed: 'Failed',
    manual_enrolled: 'Enrolled by the school',
    refunded: 'Refunded',
    unknown: 'Unknown',
  },
  paymentType: {
    credit_card: 'Credit card',
    atm: 'ATM transfer',
    cvs: 'Convenience store',
    line_pay: 'LINE Pay',
    apple_pay: 'Apple Pay',
    manual: 'Arranged by the school',
    free: 'Free',
    unknown: 'Unknown',
  },
  refundState: {
    none: 'No refund',
    requested: 'Refund requested',
    processing: 'Refund in progress',
    partially_refunded: 'Partly refunded',
    refunded: 'Refunded',
    rejected: 'Refund declined',
    unknown: 'Unknown',
  },
  itemType: {
    CurriculumPlan: 'Course',
    MembershipPlan: 'Membership',
    Ticket: 'Event ticket',
    DigitalProduct: 'Digital product',
    OrderBump: 'Add-on',
    Meeting: 'Consulting session',
    unknown: 'Unknown',
  },
  orderState: {
    paid: 'Paid',
    partially_refunded: 'Partly refunded',
    refunded: 'Refunded',
    awaiting_payment: 'Waiting for payment',
    expired: 'Expired',
    failed: 'Payment failed',
    manual_enrolled: 'Enrolled by the school',
    mixed: 'Several states',
  },
  invoiceKind: {
    personal: 'Personal',
    company: 'Company',
    donation: 'Donated',
    unknown: 'Unknown',
  },
  adjustmentKind: { coupon: 'Coupon', promotion: 'Promotion', unknown: 'Unknown' },
  csv: {
    tradeNo: 'Order number',
    orderDate: 'Order date',
    orderState: 'Order state',
    items: 'Items',
    paymentId: 'Payment ID',
    paymentMethod: 'Payment method',
    paymentState: 'Payment state',
    createdAt: 'Payment created',
    paidAt: 'Paid at',
    currency: 'Currency',
    amount: 'Amount',
    adjustments: 'Discounts',
    refundState: 'Refund',
    refundedAmount: 'Refunded amount',
    invoiceNumber: 'Invoice number',
    invoiceKind: 'Invoice type',
    invoiceTitle: 'Invoice title',
    taxId: 'Tax ID',
    timeZone: (zone: string) => `(${zone})`,
  },
  receipt: {
    title: 'Receipt',
    orderNo: 'Order number',
    orderDate: 'Order date',
    state: 'State',
    site: 'School',
    payment: (n: number, of: number) => (of > 1 ? `Payment ${n} of ${of}` : 'Payment'),
    method: 'Method',
    amount: 'Amount',
    createdAt: 'Created',
    paidAt: 'Paid',
    item: 'Item',
    type: 'Type',
    quantity: 'Qty',
    original: 'Price',
    discount: 'Discount',
    final: 'Paid',
    adjustments: 'Discounts',
    installmentLabel: 'Installments',
    installment: (periods: number, amount: string) => `${periods} installments of ${amount}`,
    invoice: 'Invoice',
    invoiceNumber: 'Number',
    invoiceKind: 'Type',
    invoiceTitle: 'Title',
    taxId: 'Tax ID',
    issuedAt: 'Issued',
    voidedAt: 'Voided',
    refund: 'Refund',
    refundState: 'State',
    refundedAmount: 'Refunded',
    refundRequestedAt: 'Requested',
    refundedAt: 'Refunded on',
    paymentCode: 'Payment code',
    bank: 'Bank',
    payBy: 'Pay by',
    total: 'Order total',
    paid: 'Paid',
    refunded: 'Refunded',
    footer: (when: string) =>
      `Made by Learning Desktop from this computer's copy of your purchases on ${when}.`,
    notInvoice:
      'This receipt is not a tax invoice; the invoice fields are shown as the school gave them.',
  },
  calendar: {
    paymentSummary: (amount: string, title: string) => `Pay ${amount}: ${title}`,
    paymentDescription: (l: {
      method: string;
      code: string;
      bank: string | null;
      amount: string;
      tradeNo: string;
      site: string;
    }) =>
      [
        `${l.method}: ${l.code}`,
        ...(l.bank ? [`Bank: ${l.bank}`] : []),
        `Amount: ${l.amount}`,
        `Order number: ${l.tradeNo}`,
        `School: ${l.site}`,
        'After this time the code no longer works.',
      ].join('\n'),
    paymentAlarm: 'Payment deadline',
    accessSummary: (title: string) => `Access ends: ${title}`,
    accessDescription: (l: {
      title: string;
      site: string;
      progress: number;
      lectures: number;
      minutes: number;
    }) =>
      [
        `Your access to “${l.title}” ends at this time.`,
        `Progress: ${l.progress}%`,
        l.lectures === 0
          ? 'Left: nothing, every lecture is done.'
          : `Left: ${l.lectures} ${l.lectures === 1 ? 'lecture' : 'lectures'}, ${watchTime(l.minutes, 'h', 'min')}`,
        `School: ${l.site}`,
      ].join('\n'),
    accessAlarm: 'Course access ends soon',
    eventDescription: (l: { where: string; ticket: string; site: string; join: string | null }) =>
      [
        `Where: ${l.where}`,
        `Ticket: ${l.ticket}`,
        ...(l.join ? [`Join: ${l.join}`] : []),
        `School: ${l.site}`,
      ].join('\n'),
    eventOnline: 'Online',
    eventAlarm: 'Event starts soon',
  },
} satisfies Strings;

const zhTW = {
  paymentState: {
    not_paid: '尚未付款',
    paid: '已付款',
    expired: '已逾期',
    failed: '付款失敗',
    manual_enrolled: '由學校加入',
    refunded: '已退款',
    unknown: '不明',
  },
  paymentType: {
    credit_card: '信用卡',
    atm: 'ATM 轉帳',
    cvs: '超商代碼',
    line_pay: 'LINE Pay',
    apple_pay: 'Apple Pay',
    manual: '由學校安排',
    free: '免費',
    unknown: '不明',
  },
  refundState: {
    none: '無退款',
    requested: '已申請退款',
    processing: '退款處理中',
    partially_refunded: '部分退款',
    refunded: '已退款',
    rejected: '退款未核准',
    unknown: '不明',
  },
  itemType: {
    CurriculumPlan: '課程',
    MembershipPlan: '會員方案',
    Ticket: '活動票券',
    DigitalProduct: '數位商品',
    OrderBump: '加購',
    Meeting: '諮詢時段',
    unknown: '不明',
  },
  orderState: {
    paid: '已付款',
    partially_refunded: '部分退款',
    refunded: '已退款',
    awaiting_payment: '等待付款',
    expired: '已逾期',
    failed: '付款失敗',
    manual_enrolled: '由學校加入',
    mixed: '多種狀態',
  },
  invoiceKind: { personal: '個人', company: '公司', donation: '捐贈', unknown: '不明' },
  adjustmentKind: { coupon: '折價券', promotion: '優惠活動', unknown: '不明' },
  csv: {
    tradeNo: '訂單編號',
    orderDate: '訂單日期',
    orderState: '訂單狀態',
    items: '品項',
    paymentId: '付款編號',
    paymentMethod: '付款方式',
    paymentState: '付款狀態',
    createdAt: '付款建立時間',
    paidAt: '付款時間',
    currency: '幣別',
    amount: '金額',
    adjustments: '折扣',
    refundState: '退款',
    refundedAmount: '退款金額',
    invoiceNumber: '發票號碼',
    invoiceKind: '發票類型',
    invoiceTitle: '發票抬頭',
    taxId: '統一編號',
    timeZone: (zone: string) => `（${zone}）`,
  },
  receipt: {
    title: '收據',
    orderNo: '訂單編號',
    orderDate: '訂單日期',
    state: '狀態',
    site: '學校',
    payment: (n: number, of: number) => (of > 1 ? `第 ${n} 筆付款（共 ${of} 筆）` : '付款'),
    method: '付款方式',
    amount: '金額',
    createdAt: '建立時間',
    paidAt: '付款時間',
    item: '品項',
    type: '類型',
    quantity: '數量',
    original: '原價',
    discount: '折扣',
    final: '實付',
    adjustments: '折扣',
    installmentLabel: '分期',
    installment: (periods: number, amount: string) => `分 ${periods} 期，每期 ${amount}`,
    invoice: '發票',
    invoiceNumber: '號碼',
    invoiceKind: '類型',
    invoiceTitle: '抬頭',
    taxId: '統一編號',
    issuedAt: '開立時間',
    voidedAt: '作廢時間',
    refund: '退款',
    refundState: '狀態',
    refundedAmount: '退款金額',
    refundRequestedAt: '申請時間',
    refundedAt: '退款時間',
    paymentCode: '繳費代碼',
    bank: '銀行',
    payBy: '繳費期限',
    total: '訂單總額',
    paid: '已付款',
    refunded: '已退款',
    footer: (when: string) => `由 Learning Desktop 依這台電腦上的購買紀錄於 ${when} 製作。`,
    notInvoice: '本收據並非統一發票；發票欄位依學校提供的資料顯示。',
  },
  calendar: {
    paymentSummary: (amount: string, title: string) => `繳費 ${amount}：${title}`,
    paymentDescription: (l: {
      method: string;
      code: string;
      bank: string | null;
      amount: string;
      tradeNo: string;
      site: string;
    }) =>
      [
        `${l.method}：${l.code}`,
        ...(l.bank ? [`銀行：${l.bank}`] : []),
        `金額：${l.amount}`,
        `訂單編號：${l.tradeNo}`,
        `學校：${l.site}`,
        '超過這個時間，代碼就會失效。',
      ].join('\n'),
    paymentAlarm: '繳費期限',
    accessSummary: (title: string) => `課程觀看期限：${title}`,
    accessDescription: (l: {
      title: string;
      site: string;
      progress: number;
      lectures: number;
      minutes: number;
    }) =>
      [
        `「${l.title}」的觀看權限將在這個時間結束。`,
        `進度：${l.progress}%`,
        l.lectures === 0
          ? '剩下：全部單元都看完了。'
          : `剩下：${l.lectures} 個單元，${watchTime(l.minutes, '小時', '分鐘')}`,
        `學校：${l.site}`,
      ].join('\n'),
    accessAlarm: '課程觀看期限快到了',
    eventDescription: (l: { where: string; ticket: string; site: string; join: string | null }) =>
      [
        `地點：${l.where}`,
        `票種：${l.ticket}`,
        ...(l.join ? [`加入連結：${l.join}`] : []),
        `學校：${l.site}`,
      ].join('\n'),
    eventOnline: '線上',
    eventAlarm: '活動即將開始',
  },
} satisfies Strings;

const EXPORT_STRINGS: Readonly<Record<ExportLanguage, Strings>> = { en, 'zh-TW': zhTW };

export function stringsFor(language: ExportLanguage): Strings {
  return EXPORT_STRINGS[language];
}
