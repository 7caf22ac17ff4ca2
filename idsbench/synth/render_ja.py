"""Japanese requests: 発注者・設計者からの依頼文（箇条書き・条文形式）and チェックリスト（CSV）.

Written as Japanese BIM managers write them (以上・以下・超・未満, 「」 for names and codes, ㎡ and ℃),
not translated from the English renderer: the two share only the plan.
"""
from __future__ import annotations

import re

from .gold import narrowed
from .plan import Equals, OneOf, Presence, Requirement, SpecPlan, TaskPlan, Turn
from .render import Voice, filter_word, group_paragraph, group_name, item_name, number, spelled_class, unit_symbol, value_word
from .values import Format, Range, Token

PURPOSES = {  # compose.PURPOSES のキーごと
    "design-check": "設計段階のモデルチェック", "fm-handover": "施設管理者への引渡し", "fire-review": "防火・避難の確認",
    "access-review": "バリアフリーの確認", "structural-check": "構造設計のチェック",
    "fabrication": "PCa・鉄骨の製作への引継ぎ", "take-off": "数量拾い", "fire-equipment": "防災設備の確認", "commissioning": "設備の試運転・引渡し",
    "maintenance-register": "保全用の資産台帳", "civil-register": "土木施設の資産台帳", "road-register": "道路の資産台帳",
    "bridge-inspection": "橋梁点検データベース", "earthworks-check": "土工数量の確認",
    "drainage-register": "排水施設の資産台帳", "track-register": "軌道設備の台帳",
}
OPENINGS = (
    "{purpose}に向けた情報要件を以下にまとめました。納品前に毎回モデルをチェックできるよう、IDSにしてください。",
    "{purpose}のため、下記の要件をIDSファイルにしてください。",
    "{purpose}では、モデルを以下の内容で確認しています。IDSの作成をお願いします。",
)
STANDARD = ("IFC標準のプロパティセットに項目がある場合は、それを使用すること。",
            "IFC標準のプロパティセットにある項目は、標準のプロパティセットに入力すること。")
QUANTITIES = ("数量はIFCの基本数量で入力すること。", "数量はIFCの基本数量として納品すること。")
CLIENT_SET = ("当社独自の項目はプロパティセット「{name}」に入力すること（データ型は末尾のデータ辞書のとおり）。",
              "独自項目は当社のプロパティセット「{name}」に入力する。データ型は下記のデータ辞書を参照。")
ANY_SET = ("プロパティ名のみを指定している項目は、任意のプロパティセットに入力してよい（データ型は下記のデータ辞書のとおり）。",)
NORMS = {"jp": ("材料の種類・等級は日本の規格（JIS等）による。", "種類・等級の表記はJIS等の国内規格による。"),
         "intl": ("本件は海外案件のため、材料の等級・区分は欧州規格（EN）による。",
                  "海外案件につき、等級・区分の表記は欧州規格（EN）に従う。")}
SEPARATOR, BULLET, NONE = "", "・", "－"
DICTIONARY = ("当社独自プロパティのデータ辞書：", "| プロパティ名 | データ型 | 単位 | 説明 |")
EXTRAS = ("", "", "設計者", "施工者")  # 担当（IDSには含めない列）
TBD_ROW = ("分類コード", "未定", "未定", "－", "発注者確認中")
CLOSINGS = ("その他は現状のままで結構です。", "それ以外は変更ありません。")
INTROS = ("レビューの結果、以下の{}点を変更してください。", "IDSについて{}点修正をお願いします。")
NOISE = {  # 依頼と同じ工種の補足（compose.py が両言語で同じものを選ぶ）
    "architectural": ("建具表は別途確認するため、今回のチェック対象外とします。",
                      "分類コードは次回の改訂で追加予定のため、現時点では不要です。",
                      "ファイル名は指定どおりとしてください。"),
    "structural": ("吊り金物と仮設材は施工者側で確認するため、今回のチェック対象外とします。",
                   "分類コードは次回の改訂で追加予定のため、現時点では不要です。",
                   "ファイル名は指定どおりとしてください。"),
    "mep": ("配管・配線ルートは別途調整するため、今回のチェック対象外とします。",
            "分類コードは次回の改訂で追加予定のため、現時点では不要です。",
            "ファイル名は指定どおりとしてください。"),
    "civil": ("線形と測量の基準点は測量者が確認するため、今回のチェック対象外とします。",
              "分類コードは次回の改訂で追加予定のため、現時点では不要です。",
              "ファイル名は指定どおりとしてください。"),
}
BOUND = {"at least": "{a}以上", "at most": "{a}以下", "more than": "{a}を超える値", "less than": "{a}未満",
         "between": "{a}以上{b}以下", "positive": "0より大きい値"}
SPELLED_BOUND = {"at least": "{a} 以上（>=）", "at most": "{a} 以下（<=）", "more than": "{a} 超（>）",
                 "less than": "{a} 未満（<）", "between": "{a} 以上 {b} 以下", "positive": "0 超（>）"}
DIGITS = "１２３４"


def quantity_text(v: Voice, value, unit_key: str | None) -> str:
    return f"{number(value)}{unit_symbol(v, unit_key)}"


def range_text(v: Voice, value: Range, units: bool = True) -> str:
    unit_key = value.unit.key if value.unit and units else None
    shown = [quantity_text(v, b.shown, unit_key) for b in value.bounds]
    template = (SPELLED_BOUND if v.plan.spelled else BOUND)[value.phrase]
    return template.format(a=shown[0], b=shown[-1])


def _token_words(token: Token) -> str:
    if token.kind == "literal":
        return "ハイフン" if token.text == "-" else f"英字「{token.text}」"
    if token.kind == "digits":
        return f"数字{token.count}桁"
    if token.kind == "letters":
        return f"英大文字{token.count}文字"
    return "階コード（数字2桁、地下はB1～B3）"


def format_text(value: Format) -> str:
    return "＋".join(_token_words(t) for t in value.tokens) + f"（例：{'、'.join(value.examples)}）"


def value_text(v: Voice, req: Requirement) -> str:
    value = req.value
    if isinstance(value, Range):
        return range_text(v, value)
    if isinstance(value, Format):
        return f"形式は{format_text(value)}"
    if isinstance(value, OneOf):
        return "".join(f"「{value_word(v, req, g, w)}」" for g, w in zip(value.gold, value.words)) + "のいずれか"
    if isinstance(value, Equals):
        return f"「{value_word(v, req, value.gold, value.words)}」"
    return ""


def _answer(item: str, truth: str) -> str:
    if item.endswith("有無"):
        return "有" if truth == "true" else "無"
    return "はい" if truth == "true" else "いいえ"


def _predicate(v: Voice, req: Requirement) -> str:
    """What the clause says of the item (after 「は」), for a value restriction."""
    value = req.value
    if isinstance(value, Equals) and req.flag and value.words and not v.plan.spelled:
        return f"{value_word(v, req, value.gold, value.words)}ものとして入力すること"
    if isinstance(value, Equals) and req.flag:
        return f"「{'はい' if value.gold == 'true' else 'いいえ'}」とすること"
    if isinstance(value, Format):
        return f"{format_text(value)}の形式とすること"
    return f"{value_text(v, req)}とすること"


def clause(v: Voice, req: Requirement) -> str:
    item = item_name(v, req)
    if req.source == "client" or (req.flag and item.endswith("か")):
        item = f"「{item}」"
    elif req.source == "any-set":
        item = f"「{item}」（プロパティセットは任意）"
    if req.cardinality == "prohibited":
        return f"{item}は今後使用しないため、入力しないこと"
    if isinstance(req.value, Presence):
        return v.pick(("presence", req.key), (f"{item}を入力すること", f"{item}は必須", f"{item}：必須"))
    predicate = _predicate(v, req)
    if req.cardinality == "optional":
        return f"{item}を記入する場合は、{predicate}"
    if isinstance(req.value, Equals) and req.flag and req.value.words and not v.plan.spelled:
        return predicate
    return f"{item}は{predicate}"


def group_phrase(v: Voice, spec: SpecPlan, version: str) -> str:
    if v.plan.spelled:
        text = spelled_class(version, spec.group.ifc_class)
        if spec.group.predefined_type:
            text += f"（定義済みタイプ {spec.group.predefined_type}）"
        if spec.filter:
            text += f"のうち {spec.filter.pset.en}.{spec.filter.name.en} が {spec.filter.value.gold} のもの"
        return text
    enumeration = spec.filter is not None and not spec.filter.flag
    return narrowed(group_name(v, spec), filter_word(v, spec), enumeration, "ja")


LEADS = {"prohibited": ("{group}はモデルに含めないこと。", "{group}は一切納品しないこと。"),
         "optional": ("{group}を設置する場合は、各{group}について：", "{group}（ある場合のみ）："),
         "required": ("{group}（モデルに必ず含まれること）：", "モデルには{group}が含まれていること。各{group}について：")}


def spec_paragraph(v: Voice, spec: SpecPlan, version: str) -> str:
    return group_paragraph(v, spec, group_phrase(v, spec, version), lambda r: clause(v, r), LEADS, "。", "", "。")


HEADERS = (("No", "対象", "モデル内の有無", "情報項目", "入力先", "要求内容", "単位", "備考"),
           ("番号", "対象要素", "適用", "属性・プロパティ", "プロパティセット", "ルール", "単位", "担当"))
PRESENCE = {"required": "必須", "optional": "ある場合のみ", "prohibited": "不可"}
SOURCES = {"standard": "IFC標準", "quantity": "IFCの基本数量", "attribute": "－（オブジェクト自体の項目）", "any-set": "任意"}
NOT_PERMITTED = "モデルに含めない"


def capital(text: str) -> str:
    return text


def rule(v: Voice, req: Requirement) -> str:
    if req.cardinality == "prohibited":
        return "入力しない"
    if isinstance(req.value, Presence):
        return "必須"
    if isinstance(req.value, Equals) and req.flag:
        text = _answer(item_name(v, req), req.value.gold)
    elif isinstance(req.value, Range):
        text = range_text(v, req.value, units=False)
    else:
        text = value_text(v, req)
    return f"記入する場合は{text}" if req.cardinality == "optional" else text


def change_text(v: Voice, plan: TaskPlan, before: Turn, after: Turn) -> str:
    """One change, as one sentence, worded against the state it changes."""
    change = after.change
    version = after.versions[0]
    if change.kind == "version-upgrade":
        return (f"モデルの納品バージョンが{' '.join(before.versions)}から{' '.join(after.versions)}に変更になりました。"
                "このバージョンに合わせてIDSを更新してください。")
    spec = before.specs[change.spec]
    group = group_phrase(v, spec, version)
    if change.kind == "add-requirement":
        return f"{group}について、次の項目も追加してください：{clause(v, change.requirement)}。"
    if change.kind == "change-bound":
        return f"{group}の条件を変更します：{clause(v, change.requirement)}（変更前：{value_text(v, change.old)}）。"
    if change.kind == "remove-requirement":
        item = item_name(v, change.old)
        item = f"「{item}」の項目" if change.old.flag else item  # 「避難経路上か」: a question, named as an item
        return f"{_of_group(group, item)}は不要になりましたので、削除してください。"
    split = after.specs[change.spec]
    other = after.specs[change.spec + 1]
    return (f"{group}を{group_phrase(v, split, version)}と{group_phrase(v, other, version)}に分けてください。"
            f"{SPLIT_PRESENCE[split.occurrence]}どちらも現在の要件はそのままとし、{group_phrase(v, split, version)}には"
            f"次の項目を追加します：{clause(v, change.requirement)}。")


# A noun said twice across の (洗面器の洗面器の…): a template joined a group to an item that already names it.
DOUBLED = re.compile(r"(\S{2,})の\1")


def _of_group(group: str, item: str) -> str:
    """「{group}の{item}」, unless the item already names the group (洗面器の取付方式 stands alone) or the join
    would say a noun twice (then 「{group}について、{item}」)."""
    if group in item:
        return item
    joined = f"{group}の{item}"
    return f"{group}について、{item}" if DOUBLED.search(joined) else joined


SPLIT_PRESENCE = {"required": "どちらもモデルに含まれていることとし、", "optional": "どちらも存在する場合のみ対象とし、"}


def standard_case_text(nouns: list[str]) -> str:
    """The export convention that makes the class alone the entity: one sentence for the groups it concerns."""
    return f"{'、'.join(nouns)}はStandardCase サブタイプを用いずに書き出す。"


def count_intro(intro: str, count: int) -> str:
    return intro.format(count)
