//! Word and sentence pools of the demo data. Deliberately hostile to
//! terminals: emoji, CJK, right-to-left scripts, combining marks, very long
//! lines, and text carrying escape sequences a client must show inert.

/// (country calling code, given names, family names, family name first)
pub const COUNTRIES: &[(&str, &[&str], &[&str], bool)] = &[
    (
        "+1",
        &["Olivia", "Liam", "Emma", "Noah", "Ava", "Mason"],
        &["Smith", "Johnson", "Brown", "Davis", "O'Connor"],
        false,
    ),
    (
        "+44",
        &["Oliver", "Amelia", "Harry", "Isla"],
        &["Taylor", "Wilson", "Evans", "Thompson"],
        false,
    ),
    (
        "+49",
        &["Jürgen", "Lena", "Jörg", "Anneliese"],
        &["Müller", "Schäfer", "Groß", "Weiß"],
        false,
    ),
    (
        "+33",
        &["Zoë", "Chloé", "François", "Anaïs"],
        &["Lefèvre", "Dubois", "Côté", "Bézier"],
        false,
    ),
    (
        "+81",
        &["太郎", "花子", "翔太", "さくら"],
        &["山田", "佐藤", "鈴木", "高橋"],
        true,
    ),
    ("+86", &["伟", "娜", "静", "磊"], &["王", "李", "张", "刘"], true),
    ("+82", &["민준", "서연", "지호"], &["김", "이", "박"], true),
    (
        "+966",
        &["محمد", "فاطمة", "عبدالله", "نورة"],
        &["العتيبي", "الزهراني", "القحطاني"],
        false,
    ),
    (
        "+972",
        &["דוד", "נועה", "יוסף", "מיכל"],
        &["כהן", "לוי", "מזרחי"],
        false,
    ),
    (
        "+55",
        &["João", "Ana 🌸", "Luís", "Bea"],
        &["Silva", "Souza", "Conceição"],
        false,
    ),
    (
        "+84",
        &["Văn An", "Thị Hoa", "Đức"],
        &["Nguye\u{302}\u{303}n", "Trần", "Phạm"],
        true,
    ),
    (
        "+91",
        &["Priya", "Arjun", "Ananya", "Rohan"],
        &["Sharma", "Patel", "Iyer"],
        false,
    ),
    (
        "+7",
        &["Алексей", "Мария", "Дмитрий"],
        &["Иванов", "Смирнова", "Кузнецов"],
        false,
    ),
];

/// (source, weight)
pub const SOURCES: &[(&str, u32)] = &[
    ("messaging_app", 50),
    ("whatsapp", 20),
    ("telegram", 10),
    ("instagram", 10),
    ("facebook", 10),
];

pub const RECEIVED: &[&str] = &[
    "Hi! Is my order shipped yet?",
    "Hello, I'd like to change my delivery address please.",
    "こんにちは、注文の状況を教えてください。",
    "你好，我想退货。请问流程是什么？",
    "مرحبا، أريد تغيير عنوان التوصيل من فضلك",
    "שלום, האם אפשר להחליף מידה?",
    "Привет! Когда будет доставка?",
    "Thanks so much 🙏🎉 you're the best!",
    "Ça marche, merci ! 😊",
    "Cafe\u{301} au lait or the\u{301} glace\u{301}, which one is in the bundle?",
    "Z\u{351}\u{34b}a\u{352}l\u{35b}g\u{34c}o\u{35d} says hi",
    "👨‍👩‍👧‍👦 is there a family pack available?",
    "🇯🇵🇧🇷🇩🇪 do you ship to all of these?",
    "Check this \u{1b}[31mRED\u{1b}[0m text, did it break?",
    "\u{1b}[2J\u{1b}[Hdid that clear your screen?",
    "copy me \u{1b}]52;c;aGVsbG8gd29ybGQ=\u{7} please",
    "tab\tseparated\tvalues and a bell \u{7} and a CR\r in the middle",
    "안녕하세요! 환불 가능한가요?",
    "The parcel arrived damaged 😡 photo attached.",
    "Do you have this in size 42?",
    "Can I pay with a gift card 🎁?",
    "ok",
];

pub const SENT: &[&str] = &[
    "Hello, thanks for reaching out! How can we help?",
    "Your order is on its way 🚚 tracking: FD-2931-XZ",
    "ご連絡ありがとうございます。確認いたします。",
    "شكرا لتواصلك معنا، سنرد قريبا",
    "תודה רבה! נבדוק ונחזור אליך.",
    "Спасибо! Мы уже проверяем.",
    "We have issued a refund of €49.90 💶",
    "Yes, size 42 is in stock ✅",
    "We ship to 🇯🇵, 🇧🇷 and 🇩🇪, delivery takes 3–5 days.",
    "Sorry about that! A replacement is on its way.",
];

pub const NOTES: &[&str] = &[
    "Customer prefers WhatsApp.",
    "VIP: handle with care ⚠️",
    "Asked for a refund, waiting for finance.",
    "电话回访：下午三点",
    "Spoke Arabic on the phone: يفضل التواصل مساءً",
    "Possible duplicate of another contact, check before merging.",
];

pub const BOT_REPLIES: &[&str] = &[
    "🤖 Thanks! An agent will be with you shortly.",
    "🤖 Our opening hours are 9:00–18:00 CET, Monday to Friday.",
    "🤖 You can track your order at https://shop.example.com/track",
];

pub const CONTACT_NOTES: &[&str] = &[
    "Prefers to be contacted in the evening.",
    "Wholesale buyer, ask for the B2B price list.",
    "Allergic to latex: never ship the latex gloves bundle.",
    "日本語で対応してください。",
    "יש להתקשר לפני המשלוח",
];

pub const COMPANIES: &[&str] = &[
    "Acme GmbH",
    "株式会社サンプル",
    "Globex",
    "Initech",
    "شركة المثال",
    "Umbrella Corp",
];

/// A message long enough to need wrapping and scrolling in any pane.
pub fn long_message(n: usize) -> String {
    let para = "This is a deliberately long message. It goes on and on about the order, the weather, \
        the colour of the box (teal, not turquoise!), and asks three separate questions in one breath: \
        when will it arrive, can it be gift-wrapped 🎁, and is there a discount for a second one? ";
    let mut s = String::with_capacity(para.len() * n + 40);
    for i in 0..n {
        s.push_str(&format!("[{}] ", i + 1));
        s.push_str(para);
        if i % 3 == 2 {
            s.push_str("\n\n");
        }
    }
    s
}
