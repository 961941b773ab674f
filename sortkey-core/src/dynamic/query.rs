//! Query conditions on a layout read at run time: the derived builder's calls, by field name,
//! through the same [`QueryHead`], so that the same call gives the same [`KeyCondition`] or
//! the same refusal. What the derived builder refuses at compile time (a field out of order, a
//! range on a partition key) is a [`QueryError`] here.

use crate::dynamic::encode::write_type;
use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::spec::{intern, spec, whole_key};
use crate::dynamic::value::DynValue;
use crate::encoding::framing::field_in;
use crate::encoding::key::KeyRole;
use crate::encoding::spec::Field;
use crate::error::{EncodeErrorKind, QueryError, QueryErrorKind};
use crate::query::condition::KeyCondition;
use crate::query::ends::Bounded;
use crate::query::{Comparison, QueryHead};

/// A query condition being built on a [`DynLayout`]: fix fields in order by name, then end with
/// a range or a prefix on the next one, [`begins_with`](Self::begins_with) or
/// [`eq`](Self::eq), as the derived builder does (`RankKey::query().score(1500).timestamp_range().gte(t)`
/// is `layout.query().fix("score", &v).compare("timestamp", Comparison::Ge, &t)`).
///
/// A family's query first picks its variant ([`variant`](Self::variant)). A mistake (a field
/// out of order, a value of another type) is kept and returned by the method that ends the
/// query, as the derived builder keeps a value that does not fit.
///
/// ```
/// use sortkey_core::query::Comparison;
/// use sortkey_core::{DynLayout, DynValue, KeyCondition};
///
/// let layout = DynLayout::parse("RUN#{score:u64 width=10 desc}#{player:text}")?;
/// let cond = layout.query().compare("score", Comparison::Ge, &DynValue::Unsigned(1500))?;
/// assert_eq!(cond, KeyCondition::Between("RUN#".into(), "RUN#9999998499$".into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a query does nothing until it ends with a condition"]
pub struct DynQuery<'a> {
    /// The key whose fields are fixed: the layout's, or the chosen variant's.
    key: Option<&'a DynKey>,
    /// The family the query is on, until a variant is chosen.
    family: Option<&'a [DynVariant]>,
    role: KeyRole,
    /// The layout's name, which its errors give the key.
    name: &'static str,
    /// Fields fixed so far.
    fixed: usize,
    head: QueryHead,
    /// The first mistake, returned by the method that ends the query.
    error: Option<QueryError>,
}

impl DynLayout {
    /// Starts a query condition on this layout's keys: see [`DynQuery`].
    pub fn query(&self) -> DynQuery<'_> {
        let (key, family) = match &self.key.body {
            DynBody::Family(variants) => (None, Some(variants.as_slice())),
            _ => (Some(&self.key), None),
        };
        let prefix = key.and_then(|k| k.prefix.as_deref()).map(intern);
        DynQuery {
            key,
            family,
            role: self.role,
            fixed: 0,
            name: self.name,
            head: QueryHead::new(self.name, prefix, self.key.separator, self.max_len, self.role),
            error: None,
        }
    }
}

/// A query error of the dynamic layer, about `field` (or the whole query).
#[cold]
fn error(name: &'static str, field: Option<&str>, kind: QueryErrorKind) -> QueryError {
    QueryError::new(name, field.map(intern), kind)
}

impl<'a> DynQuery<'a> {
    /// Picks a family's variant by its literal (a unit variant, whose one key is then all that
    /// is left: [`eq`](Self::eq)) or its prefix (a keyed one, whose fields follow), as the
    /// derived family builder's variant methods do.
    pub fn variant(mut self, name: &str) -> Self {
        let Some(variants) = self.family.take() else {
            return self.fail(None, "a field of the key, which is no family".to_owned(), format!("variant {name:?}"));
        };
        let found = variants.iter().find_map(|v| match v {
            DynVariant::Unit(lit) if lit == name => Some(None),
            DynVariant::Key(key) if key.prefix.as_deref() == Some(name) => Some(Some(key)),
            _ => None,
        });
        let Some(key) = found else {
            let names: Vec<String> = variants.iter().map(|v| format!("{:?}", variant_name(v))).collect();
            return self.fail(None, format!("one of the variants {}", names.join(", ")), format!("{name:?}"));
        };
        let separator = key.map_or('#', |k| k.separator);
        let prefix = key.map_or(Some(name), |k| k.prefix.as_deref()).map(intern);
        self.head = QueryHead::new(self.name, prefix, separator, crate::encoding::key::SORT_KEY_LIMIT, self.role);
        // A unit variant has no fields: the query is its one key.
        self.key = key.or(Some(&UNIT));
        self
    }

    /// Fixes the field `name`, which must be the next one, to `value`.
    pub fn fix(mut self, name: &str, value: &DynValue) -> Self {
        match self.next(name) {
            Ok((field, spec)) => {
                self.fixed += 1;
                self.head = self.head.fix_with(|out| write_type(value, &field.ty, &spec, out));
                self
            }
            Err(e) => self.keep(e),
        }
    }

    /// Ends the query with the keys whose field `name` (the next one) compares with `value` as
    /// `cmp` says, in the field's own order.
    pub fn compare(self, name: &str, cmp: Comparison, value: &DynValue) -> Result<KeyCondition, QueryError> {
        let (this, field, spec) = self.range(name)?;
        this.head.compare_within(cmp, &spec, bounded(&field.ty), |out| write_type(value, &field.ty, &spec, out))
    }

    /// Ends the query with the keys whose field `name` (the next one) lies in `low..=high`, in
    /// the field's own order (a `desc` field's bounds are swapped for you).
    pub fn between(self, name: &str, low: &DynValue, high: &DynValue) -> Result<KeyCondition, QueryError> {
        let (this, field, spec) = self.range(name)?;
        let (ty, spec) = (&field.ty, &spec);
        this.head.between_with(spec, |out| write_type(low, ty, spec, out), |out| write_type(high, ty, spec, out))
    }

    /// Ends the query with the keys whose text field `name` (the next one) starts with `prefix`.
    pub fn text_begins_with(self, name: &str, prefix: &str) -> Result<KeyCondition, QueryError> {
        let (this, field, spec) = self.range(name)?;
        if field.ty != DynType::Text {
            let kind = EncodeErrorKind::Mismatch {
                expected: "a `text` field for a prefix".to_owned(),
                found: format!("a `{}` field", field.ty),
            };
            return Err(error(this.name, Some(name), QueryErrorKind::Encode(kind)));
        }
        this.head.text_begins_with(prefix, &spec)
    }

    /// Ends the query with every key whose fields equal the ones fixed so far (the one key,
    /// when all are fixed).
    pub fn begins_with(self) -> Result<KeyCondition, QueryError> {
        let this = self.checked()?;
        if this.all_fixed() {
            return this.head.eq();
        }
        if this.role == KeyRole::Partition {
            return Err(error(this.name, None, QueryErrorKind::NotASortKey));
        }
        this.head.begins_with()
    }

    /// Ends the query with the one key whose fields are all fixed.
    pub fn eq(self) -> Result<KeyCondition, QueryError> {
        let this = self.checked()?;
        if let Some(field) = this.next_field() {
            let found = format!("{} of the fields fixed", this.fixed);
            return Err(error(
                this.name,
                None,
                QueryErrorKind::OutOfOrder { expected: format!("field `{}`", field.name), found },
            ));
        }
        this.head.eq()
    }

    /// The field the query fixes or puts a range on next; `None` when all are fixed (or a
    /// family's variant is still to be picked).
    pub fn next_field(&self) -> Option<&'a DynField> {
        match self.key.map(|k| &k.body) {
            Some(DynBody::Fields(fields)) => fields.get(self.fixed),
            _ => None,
        }
    }

    fn all_fixed(&self) -> bool {
        self.key.is_some() && self.next_field().is_none()
    }

    /// The query so far, or its first mistake; a family needs its variant first.
    fn checked(self) -> Result<Self, QueryError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if let Some(variants) = self.family {
            let names: Vec<String> = variants.iter().map(|v| format!("{:?}", variant_name(v))).collect();
            let expected = format!("a variant first, one of {}", names.join(", "));
            return Err(error(self.name, None, QueryErrorKind::OutOfOrder { expected, found: "none".to_owned() }));
        }
        Ok(self)
    }

    /// The next field, which must be `name`, with its spec.
    fn next(&self, name: &str) -> Result<(&'a DynField, Field), QueryError> {
        let Some(key) = self.key else {
            let expected = "a variant of the family first".to_owned();
            return Err(error(
                self.name,
                Some(name),
                QueryErrorKind::OutOfOrder { expected, found: format!("field `{name}`") },
            ));
        };
        let fields = match &key.body {
            DynBody::Fields(fields) => fields.as_slice(),
            _ => &[],
        };
        match fields.get(self.fixed) {
            Some(field) if field.name == name => {
                let spec = spec(self.name, field, key.separator);
                let spec = if self.fixed + 1 == fields.len() { field_in(spec, &whole_key(self.name)) } else { spec };
                Ok((field, spec))
            }
            next => {
                let expected = match next {
                    Some(field) => format!("field `{}` next (fields are fixed in order)", field.name),
                    None => "no more fields (all are fixed)".to_owned(),
                };
                Err(error(
                    self.name,
                    Some(name),
                    QueryErrorKind::OutOfOrder { expected, found: format!("field `{name}`") },
                ))
            }
        }
    }

    /// The query, the next field `name` and its spec, for a range or a prefix on it.
    fn range(self, name: &str) -> Result<(Self, &'a DynField, Field), QueryError> {
        let this = self.checked()?;
        let (field, spec) = this.next(name)?;
        if this.role == KeyRole::Partition {
            return Err(error(this.name, Some(name), QueryErrorKind::NotASortKey));
        }
        Ok((this, field, spec))
    }

    fn keep(mut self, e: QueryError) -> Self {
        self.error.get_or_insert(e);
        self
    }

    fn fail(self, field: Option<&str>, expected: String, found: String) -> Self {
        let e = error(self.name, field, QueryErrorKind::OutOfOrder { expected, found });
        self.keep(e)
    }
}

/// The bounded type (with its levels of `option<..>`) a field of type `ty` is, as
/// [`ends::bounded`](crate::query::ends::bounded) reads a derived field's segment layout.
fn bounded(ty: &DynType) -> Option<(Bounded, u32)> {
    match ty {
        DynType::Unsigned(bits) => Some((Bounded::Unsigned(*bits), 0)),
        DynType::Signed(bits) => Some((Bounded::Signed(*bits), 0)),
        DynType::Bool => Some((Bounded::Bool, 0)),
        DynType::Timestamp => Some((Bounded::Timestamp, 0)),
        DynType::Decimal => Some((Bounded::Decimal, 0)),
        DynType::Option(inner) => bounded(inner).map(|(b, options)| (b, options + 1)),
        _ => None,
    }
}

/// The key of a unit variant: no fields.
static UNIT: DynKey = DynKey { prefix: None, separator: '#', body: DynBody::Fields(Vec::new()) };

/// A variant's literal or prefix.
fn variant_name(v: &DynVariant) -> &str {
    match v {
        DynVariant::Unit(lit) => lit,
        DynVariant::Key(key) => key.prefix.as_deref().unwrap_or_default(),
    }
}
