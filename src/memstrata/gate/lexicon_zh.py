"""The gate's Chinese vocabulary: numerals, times, dates, relatives, change markers, phrases
read as their plain or negated forms, particles, and the words of roles, moves and additions.

Data only, as :mod:`memstrata.gate.lexicon` is for English; :mod:`memstrata.gate.statements`
and :mod:`memstrata.gate.replacing` read a text with it.
"""

from __future__ import annotations

import re

ZH_RELATIVES = (
    "女儿",
    "儿子",
    "孩子",
    "妻子",
    "老婆",
    "丈夫",
    "老公",
    "妈妈",
    "母亲",
    "爸爸",
    "父亲",
    "姐姐",
    "妹妹",
    "哥哥",
    "弟弟",
    "朋友",
    "同事",
    "老板",
    "男友",
    "女友",
    "邻居",
)

ZH_NUMERAL = "零〇一二两三四五六七八九十百千万"
ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_WEEKDAYS = {
    "一": "monday",
    "二": "tuesday",
    "三": "wednesday",
    "四": "thursday",
    "五": "friday",
    "六": "saturday",
    "日": "sunday",
    "天": "sunday",
}
ZH_PERIODS = {"上午": "", "早上": "", "早晨": "", "中午": "", "下午": "pm", "晚上": "pm"}
# Compounds holding a numeral or a negation character that mean neither (patterns).
ZH_PROTECTED = (
    ("非常", "很"),
    ("十分(?!钟)", "很"),
    ("特别", "很"),
    ("一直", "总"),
    ("始终", "总"),
    ("一起", "同"),
    ("一些", "些"),
    ("一下", ""),
    ("一样", "同样"),
    ("一般", "通常"),
    ("一定", "必"),
    ("一切", "全部"),
    ("一向", "总"),
    ("统一", "统合"),
    ("唯一", "仅"),
    ("万一", "如果"),
    ("千万", "务必"),
    ("三明治", "sandwich"),
    ("不错", "好"),
    ("不仅", ""),
    ("不断", "持续"),
    ("无论", ""),
    ("未来", "将来"),
    ("别人", "他人"),
    ("别的", "其他"),
    ("差不多", "大约"),
    ("并且", "且"),
    ("毫无疑问", ""),
    ("不得不", "必须"),
    ("不久", "很快"),
)
ZH_PROTECTED_PATTERNS = tuple((re.compile(p), r) for p, r in ZH_PROTECTED)
ZH_PHRASES = (
    ("讨厌", "不喜欢"),
    ("厌恶", "不喜欢"),
    ("反感", "不喜欢"),
    ("关闭", "不开启"),
    ("关门", "不开门"),
    ("离线", "不在线"),
    ("关掉", "不开启"),
    ("禁用", "不开启"),
    ("停用", "不开启"),
    ("启用", "开启"),
    ("打开", "开启"),
    # must, may, must not: a rule's force is no content; a prohibition is a negation
    ("绝对不能", "不"),
    ("不得", "不"),
    ("不准", "不"),
    ("不许", "不"),
    ("不要", "不"),
    ("禁止", "不"),
    ("不可以", "不"),
    ("必须", ""),
    ("务必", ""),
    ("一定要", ""),
    ("应该", ""),
    ("应当", ""),
    ("可以", ""),
    ("无法", "不能"),
    ("反对", "不同意"),
    ("喜爱", "喜欢"),
    ("热爱", "喜欢"),
    ("钟爱", "喜欢"),
    ("偏爱", "喜欢"),
    ("偏好", "喜欢"),
    ("居住在", "住"),
    ("居住", "住"),
    ("住在", "住"),
    ("使用", "用"),
    ("采用", "用"),
    ("用的是", "用"),
    ("购买", "买"),
    ("想要", "希望"),
    ("要求", "希望"),
    ("编写", "写"),
    ("运行", "跑"),
    ("就职于", "工作于"),
    ("任职于", "工作于"),
    ("素食者", "吃素"),
    ("素食主义者", "吃素"),
    ("会说", "懂"),
    ("每天晚上", " night "),
    ("每晚", " night "),
    ("每天早上", " morning "),
    ("每天早晨", " morning "),
    ("每天", " daily "),
    ("每日", " daily "),
    ("每周", " weekly "),
    ("每星期", " weekly "),
    ("每月", " monthly "),
    ("早上", " morning "),
    ("早晨", " morning "),
    ("上午", " morning "),
    ("下午", " afternoon "),
    ("晚上", " night "),
    ("今天", " today "),
    ("明天", " tomorrow "),
    ("昨天", " yesterday "),
    ("下周", " next week "),
    ("上周", " last week "),
    ("周末", " weekend "),
    ("春天", " spring "),
    ("夏天", " summer "),
    ("秋天", " autumn "),
    ("冬天", " winter "),
)
ZH_LOVE = re.compile(r"(?<![可恋心])爱(?![好人])")
ZH_NEGATIONS = ("不", "没", "無", "无", "未", "非", "别")
ZH_CHANGE = (
    "不再",
    "已经",
    "现在",
    "如今",
    "目前",
    "改为",
    "改到",
    "改成",
    "换成",
    "换到",
    "开始",
    "搬到",
    "变成",
    "涨到",
    "降到",
    "提高到",
    "降低到",
    "增加到",
    "减少到",
    "调到",
    "调整为",
    "升级到",
    "迁到",
    "迁移到",
)
# "Also" in Chinese (not 也许, "maybe"): "我*也*喝咖啡" keeps "我喝茶".
ZH_ADDING = re.compile("也(?!许)|另外|此外")
# Verbs that relate one to many values at once (MANY_VALUED in lexicon.py): "小李*会说*法语"
# says nothing against "小李会说西班牙语". Two characters each: 说 alone is also "says"; 更喜欢
# and 最喜欢 ("prefers", "likes best") are one choice.
ZH_MANY_VALUED = re.compile(
    "会说|会讲|(?<![更最])喜欢|热爱|爱吃|爱喝|爱看|去过|到过|会弹|会打|会踢|会玩|在学|学过|懂得"
    "|收藏|收集|看过|读过|听过"
)
# Allergic to many things: "对花生*过敏*" / "对海鲜过敏", the value inside the frame.
ZH_ALLERGIC = re.compile(r"对[^，。,.;；]+过敏")
# Values that exclude each other (EXCLUSIVE_VALUES in lexicon.py): "喜欢*深*色主题" / "*浅*色".
ZH_EXCLUSIVE_VALUES = frozenset(
    frozenset(pair)
    for pair in ("深浅", "冷热", "冰热", "早晚", "长短", "大小", "高低", "快慢", "轻重")
)
# Verbs of a role one holds at a time: "张伟现在*负责*支付团队" hands over what 李娜 led.
ZH_ONE_HOLDER = ("负责", "管理", "主管", "领导", "维护", "带领", "牵头")
# Where one went to live, and where one lives: "我*搬到*上海了" replaces "我*住在*北京".
ZH_MOVED = re.compile(r"(?:搬到|搬去|搬家到|迁到|迁居到?|移居到?)了?\s*([^\s，。,.;；!！?？了的]+)")
ZH_LIVES = re.compile(r"(?:住在|定居在|生活在|居住在)了?\s*([^\s，。,.;；!！?？了的]+)")
# When, said before a Chinese verb ("我*去年*搬到了深圳"): no part of who does it.
ZH_WHEN = re.compile(
    "去年|今年|前年|明年|上个?月|这个?月|下个?月|上周|这周|本周|下周|最近|刚刚|刚|昨天|今天|"
    "前天|已经|现在|如今|目前|后来"
)
ZH_STOP_VERBS = ("戒", "停止", "放弃", "以前", "曾经")
ZH_PARTICLES = frozenset(
    "的了很也都就还挺太吗呢吧啊呀着是在对把被由给于将这那个些之与和及又才总有只台位条件里会来"
)
ZH_TIME = re.compile(
    rf"(上午|早上|早晨|中午|下午|晚上)?\s*([\d{ZH_NUMERAL}]+)\s*[点點](半|[\d{ZH_NUMERAL}]+分)?"
)
ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
ZH_MONTH_DAY = re.compile(rf"([\d{ZH_NUMERAL}]+)\s*月(?:\s*([\d{ZH_NUMERAL}]+)\s*[日号])?")
ZH_NUMBER = re.compile(rf"[{ZH_NUMERAL}]+")
